package io.pacelink.rules;

import io.pacelink.bbr.v1.Bbr1Controller;
import io.pacelink.cubic.CubicController;
import io.pacelink.fq.FqScheduler;
import io.pacelink.reno.NewRenoController;
import io.pacelink.transport.Endpoint;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 12 item 7: every library module's jar names its module ({@code Automatic-Module-Name}), so an application on
 * the module path can require it by a stable name. Checks the jars the build packaged (the reactor puts them on this
 * module's class path from {@code package} on; a plain {@code mvn test} sees class folders and skips).
 */
class ModuleJarsTest
{
    private static final Map<String, Class<?>> MODULE_CLASSES = Map.of(
        "io.pacelink.transport", Endpoint.class,
        "io.pacelink.reno", NewRenoController.class,
        "io.pacelink.cubic", CubicController.class,
        "io.pacelink.bbr", Bbr1Controller.class,
        "io.pacelink.fq", FqScheduler.class);

    @ParameterizedTest
    @ValueSource(strings = {"io.pacelink.transport", "io.pacelink.reno", "io.pacelink.cubic", "io.pacelink.bbr",
        "io.pacelink.fq"})
    void eachModuleJarHasAnAutomaticModuleName(final String moduleName) throws Exception
    {
        final Path location = Path.of(MODULE_CLASSES.get(moduleName).getProtectionDomain().getCodeSource()
            .getLocation().toURI());
        assumeTrue(Files.isRegularFile(location), "not packaged yet: " + location);
        try (JarFile jar = new JarFile(location.toFile()))
        {
            assertEquals(moduleName, jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name"),
                location.toString());
        }
    }
}
