package io.pacelink.report;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pacelink.link.PathSpec;
import io.pacelink.link.PathSpecException;
import io.pacelink.transport.schedule.PacketSchedulers;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Reads a suite: a built-in one by name ({@code standard}, {@code quick}, shipped in the jar with the mahimahi trace
 * they use) or a YAML or JSON file. Everything is checked before anything runs — keys, durations, path specs (with
 * {@code trace=} files relative to the suite's folder), flow windows — and an error names the scenario and the key.
 * The format is described in docs/report.md.
 */
public final class SuiteLoader
{
    /**
     * The suites shipped in the jar.
     */
    public static final List<String> BUILT_IN = List.of("standard", "quick", "lineup", "sfqred");

    private static final String BUILT_IN_FOLDER = "/io/pacelink/report/suites/";
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9.-]*");
    private static final long DEFAULT_DURATION_NS = TimeUnit.SECONDS.toNanos(30);
    private static final int MAX_SEEDS = 1000;
    private static final int MAX_FLOWS = 1000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Set<String> SUITE_KEYS =
        Set.of("name", "title", "description", "controllers", "seeds", "duration", "scenarios");
    private static final Set<String> SCENARIO_KEYS = Set.of("name", "title", "description", "path", "reverse",
        "duration", "flows", "ping", "qdisc", "ecn", "controllers", "reference");
    private static final Set<String> FLOW_KEYS = Set.of("cc", "count", "start", "stop", "access_delay");
    private static final Set<String> REFERENCE_KEYS =
        Set.of("label", "cc", "goodput_mbps", "goodput_min_mbps", "goodput_max_mbps", "note", "source");

    private SuiteLoader()
    {
    }

    /**
     * @param suite a built-in suite's name or a file path (relative to the working directory).
     * @return the suite, every scenario checked.
     * @throws IllegalArgumentException naming what is wrong, where, and what is accepted.
     */
    public static Suite load(final String suite)
    {
        if (BUILT_IN.contains(suite))
        {
            return loadBuiltIn(suite);
        }
        final Path file = Path.of(suite);
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException("--suite " + suite + ": neither a built-in suite (" +
                String.join(", ", BUILT_IN) + ") nor a readable file");
        }
        final String fileName = file.getFileName().toString();
        final String defaultName = fileName.replaceFirst("\\.(ya?ml|json)$", "").toLowerCase(Locale.ROOT);
        return parse(file, defaultName, file.toAbsolutePath().getParent());
    }

    private static Suite loadBuiltIn(final String name)
    {
        final URL resource = SuiteLoader.class.getResource(BUILT_IN_FOLDER + name + ".yaml");
        if (null == resource)
        {
            throw new IllegalStateException("built-in suite " + name + " is missing from the class path");
        }
        final Path file = pathOf(resource);
        return parse(file, name, file.getParent());
    }

    /**
     * A resource as a path: a file when running from classes, an entry of the jar's file system otherwise (so
     * {@code trace=} files next to the suite are read from the jar as they are).
     */
    private static Path pathOf(final URL resource)
    {
        try
        {
            final URI uri = resource.toURI();
            if ("jar".equals(uri.getScheme()))
            {
                try
                {
                    FileSystems.newFileSystem(uri, Map.of());
                }
                catch (final FileSystemAlreadyExistsException ignore)
                {
                    // Opened by an earlier load: Path.of finds it.
                }
            }
            return Path.of(uri);
        }
        catch (final URISyntaxException | IOException ex)
        {
            throw new IllegalStateException("cannot read the built-in suite " + resource, ex);
        }
    }

    private static Suite parse(final Path file, final String defaultName, final Path baseDirectory)
    {
        final String fileName = file.getFileName().toString();
        final JsonNode root = fileName.endsWith(".json") ? readJson(file) : readYaml(file);

        final SuiteNode suite = SuiteNode.of(root, "suite " + fileName, SUITE_KEYS);
        final String name = suite.text("name", defaultName);
        final List<String> controllers = suite.texts("controllers");
        final int seeds = suite.integer("seeds", 1, 1, MAX_SEEDS);
        final long defaultDurationNs = suite.durationNs("duration", DEFAULT_DURATION_NS);

        final List<SuiteScenario> scenarios = new ArrayList<>();
        final Set<String> names = new HashSet<>();
        final List<JsonNode> scenarioNodes = suite.list("scenarios");
        if (scenarioNodes.isEmpty())
        {
            throw new IllegalArgumentException(suite.where() + ": \"scenarios\" lists no scenario");
        }
        for (int i = 0; i < scenarioNodes.size(); i++)
        {
            final SuiteScenario scenario =
                scenario(scenarioNodes.get(i), suite.where(), i, defaultDurationNs, baseDirectory);
            if (!names.add(scenario.name()))
            {
                throw new IllegalArgumentException(suite.where() + ": scenario name \"" + scenario.name() +
                    "\" is used twice");
            }
            scenarios.add(scenario);
        }
        return new Suite(name, suite.text("title", "Pacelink scenario report: " + name),
            suite.text("description", ""), controllers, seeds, scenarios);
    }

    private static SuiteScenario scenario(
        final JsonNode node,
        final String suiteWhere,
        final int index,
        final long defaultDurationNs,
        final Path baseDirectory)
    {
        // Errors name the scenario once its name is known to be usable, its place in the list before that.
        final JsonNode nameNode = null == node ? null : node.get("name");
        final String givenName = null != nameNode && nameNode.isTextual() ? nameNode.asText() : null;
        final boolean nameUsable = null != givenName && NAME.matcher(givenName).matches();
        final SuiteNode named = SuiteNode.of(
            node, suiteWhere + (nameUsable ? ": scenario \"" + givenName + "\"" : ": scenarios[" + index + "]"),
            SCENARIO_KEYS);
        final String name = named.requiredText("name");
        if (!nameUsable)
        {
            throw named.error("name", "\"" + name + "\" must be lower-case letters, digits, '.' and '-' (it " +
                "names files)");
        }

        final PathSpec forward = pathSpec(named, "path", named.requiredText("path"), baseDirectory);
        final PathSpec reverse = named.has("reverse") ?
            pathSpec(named, "reverse", named.text("reverse", ""), baseDirectory) : forward.delayAndJitterOnly();
        final long durationNs = named.durationNs("duration", defaultDurationNs);
        if (durationNs <= 0)
        {
            throw named.error("duration", "must be positive, e.g. 30s");
        }
        final List<FlowTemplate> flows = flows(named, durationNs);
        final long pingIntervalNs = named.durationNs("ping", 0);
        if (named.has("ping") && pingIntervalNs <= 0)
        {
            throw named.error("ping", "must be a positive interval, e.g. 10ms");
        }

        final List<ReferenceRow> references = new ArrayList<>();
        final List<JsonNode> referenceNodes = named.list("reference");
        for (int i = 0; i < referenceNodes.size(); i++)
        {
            references.add(reference(SuiteNode.of(
                referenceNodes.get(i), named.where() + ": reference[" + i + "]", REFERENCE_KEYS)));
        }

        return new SuiteScenario(
            name,
            named.text("title", name),
            named.text("description", ""),
            new PathSpec.Pair(forward, reverse),
            durationNs,
            flows,
            pingIntervalNs,
            senderQdisc(named),
            named.flag("ecn", false),
            named.has("controllers") ? named.texts("controllers") : null,
            references);
    }

    private static PathSpec pathSpec(
        final SuiteNode scenario, final String key, final String text, final Path baseDirectory)
    {
        try
        {
            return PathSpec.parse(text, baseDirectory);
        }
        catch (final PathSpecException ex)
        {
            // The first line names the problem; the rest lists every accepted key.
            throw scenario.error(key, ex.getMessage().lines().findFirst().orElse(ex.getMessage()) +
                " (path-spec keys: docs/simulation.md)");
        }
    }

    private static String senderQdisc(final SuiteNode scenario)
    {
        try
        {
            return PacketSchedulers.resolveName(scenario.text("qdisc", null));
        }
        catch (final IllegalArgumentException ex)
        {
            throw scenario.error("qdisc", ex.getMessage());
        }
    }

    private static List<FlowTemplate> flows(final SuiteNode scenario, final long durationNs)
    {
        final JsonNode raw = scenario.raw("flows");
        final List<FlowTemplate> flows = new ArrayList<>();
        if (null == raw)
        {
            flows.add(new FlowTemplate(null, 1, 0, Long.MAX_VALUE, 0));
            return flows;
        }
        if (raw.isIntegralNumber())
        {
            final int count = scenario.integer("flows", 1, 1, MAX_FLOWS);
            flows.add(new FlowTemplate(null, count, 0, Long.MAX_VALUE, 0));
            return flows;
        }
        final List<JsonNode> nodes = scenario.list("flows");
        int total = 0;
        for (int i = 0; i < nodes.size(); i++)
        {
            final SuiteNode flow = SuiteNode.of(nodes.get(i), scenario.where() + ": flows[" + i + "]", FLOW_KEYS);
            final int count = flow.integer("count", 1, 1, MAX_FLOWS);
            final long startNs = flow.durationNs("start", 0);
            final long stopNs = flow.has("stop") ? flow.durationNs("stop", 0) : Long.MAX_VALUE;
            if (startNs >= durationNs)
            {
                throw flow.error("start", "the flow must start before the end of the run");
            }
            if (stopNs <= startNs)
            {
                throw flow.error("stop", "the flow must stop after it starts");
            }
            total += count;
            flows.add(new FlowTemplate(flow.text("cc", null), count, startNs, stopNs,
                flow.durationNs("access_delay", 0)));
        }
        if (flows.isEmpty() || total > MAX_FLOWS)
        {
            throw scenario.error("flows", "give 1 to " + MAX_FLOWS + " flows");
        }
        return flows;
    }

    private static ReferenceRow reference(final SuiteNode reference)
    {
        final double goodputMbps = reference.number("goodput_mbps", Double.NaN);
        if (Double.isNaN(goodputMbps))
        {
            throw new IllegalArgumentException(reference.where() + ": \"goodput_mbps\" is missing");
        }
        return new ReferenceRow(
            reference.requiredText("label"),
            reference.requiredText("cc"),
            goodputMbps,
            reference.number("goodput_min_mbps", Double.NaN),
            reference.number("goodput_max_mbps", Double.NaN),
            reference.text("note", ""),
            reference.requiredText("source"));
    }

    private static JsonNode readJson(final Path file)
    {
        try
        {
            return JSON.readTree(Files.readString(file));
        }
        catch (final JacksonException ex)
        {
            final String location = null == ex.getLocation() ? "" :
                " (line " + ex.getLocation().getLineNr() + ", column " + ex.getLocation().getColumnNr() + ")";
            throw new IllegalArgumentException("suite " + file + ": not valid JSON: " + ex.getOriginalMessage() +
                location, ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read suite " + file, ex);
        }
    }

    /**
     * YAML through SnakeYAML's safe constructor (plain maps, lists and scalars only; anchors and aliases resolved),
     * then the same tree as JSON, so both formats are checked by the same code.
     */
    private static JsonNode readYaml(final Path file)
    {
        try
        {
            final Object document = new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(file));
            return JSON.valueToTree(document);
        }
        catch (final YAMLException ex)
        {
            throw new IllegalArgumentException("suite " + file + ": not valid YAML: " + ex.getMessage(), ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read suite " + file, ex);
        }
    }
}
