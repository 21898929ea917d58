package io.pacelink.transport.admission;

import io.pacelink.transport.testing.AllocationMeter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AddressValidatorTest
{
    private static final long LIFETIME_NS = TimeUnit.SECONDS.toNanos(10);
    private static final InetSocketAddress CLIENT = new InetSocketAddress("192.0.2.7", 40_000);
    private static final long CLIENT_ID = 0x1234_5678_9abc_def0L;

    private final byte[] key = new byte[AddressValidator.KEY_LENGTH];
    private final AddressValidator validator = new AddressValidator(key, LIFETIME_NS);
    private final UnsafeBuffer token = new UnsafeBuffer(new byte[64]);

    @Test
    void aTokenIsValidOnlyForItsClientAddressPortAndIdWithinItsLifetime()
    {
        final long mintedNs = 1_000_000;
        assertEquals(AddressValidator.TOKEN_LENGTH, validator.mint(CLIENT, CLIENT_ID, mintedNs, token, 3));
        final int length = AddressValidator.TOKEN_LENGTH;

        assertEquals(AddressValidator.VALID, validator.verify(token, 3, length, CLIENT, CLIENT_ID, mintedNs));
        assertEquals(AddressValidator.VALID,
            validator.verify(token, 3, length, CLIENT, CLIENT_ID, mintedNs + LIFETIME_NS));
        assertEquals(AddressValidator.EXPIRED,
            validator.verify(token, 3, length, CLIENT, CLIENT_ID, mintedNs + LIFETIME_NS + 1));

        assertEquals(AddressValidator.INVALID, validator.verify(
            token, 3, length, new InetSocketAddress("192.0.2.8", 40_000), CLIENT_ID, mintedNs));
        assertEquals(AddressValidator.INVALID, validator.verify(
            token, 3, length, new InetSocketAddress("192.0.2.7", 40_001), CLIENT_ID, mintedNs));
        assertEquals(AddressValidator.INVALID, validator.verify(token, 3, length, CLIENT, CLIENT_ID + 1, mintedNs));
        assertEquals(AddressValidator.INVALID, validator.verify(token, 3, length - 1, CLIENT, CLIENT_ID, mintedNs));
        assertEquals(AddressValidator.INVALID, validator.verify(token, 3, length, CLIENT, CLIENT_ID, mintedNs - 1),
            "a token from the future");
    }

    @Test
    void anyChangedByteOrAnotherKeyInvalidatesIt()
    {
        validator.mint(CLIENT, CLIENT_ID, 0, token, 0);
        for (int i = 0; i < AddressValidator.TOKEN_LENGTH; i++)
        {
            token.putByte(i, (byte)(token.getByte(i) ^ 0x40));
            assertEquals(AddressValidator.INVALID, validator.verify(
                token, 0, AddressValidator.TOKEN_LENGTH, CLIENT, CLIENT_ID, 1), "byte " + i);
            token.putByte(i, (byte)(token.getByte(i) ^ 0x40));
        }

        final byte[] otherKey = new byte[AddressValidator.KEY_LENGTH];
        otherKey[0] = 1;
        assertEquals(AddressValidator.INVALID, new AddressValidator(otherKey, LIFETIME_NS).verify(
            token, 0, AddressValidator.TOKEN_LENGTH, CLIENT, CLIENT_ID, 1));
    }

    @Test
    void aNewTokenIsBoundToTheAddressAloneWithinItsLifetime()
    {
        final long lifetimeNs = TimeUnit.HOURS.toNanos(1);
        final AddressValidator newTokens = AddressValidator.forNewTokens(key, lifetimeNs);
        final long mintedNs = 5_000_000;
        assertEquals(AddressValidator.TOKEN_LENGTH, newTokens.mint(CLIENT, 0, mintedNs, token, 0));
        assertEquals(AddressValidator.NEW_TOKEN_FORMAT, token.getByte(0));
        final int length = AddressValidator.TOKEN_LENGTH;

        // A returning client comes from another port with another connection id.
        assertEquals(AddressValidator.VALID, newTokens.verify(
            token, 0, length, new InetSocketAddress("192.0.2.7", 51_000), CLIENT_ID + 9, mintedNs + 1));
        assertEquals(AddressValidator.VALID, newTokens.verify(token, 0, length, CLIENT, 0, mintedNs + lifetimeNs));
        assertEquals(AddressValidator.EXPIRED,
            newTokens.verify(token, 0, length, CLIENT, 0, mintedNs + lifetimeNs + 1));
        assertEquals(AddressValidator.INVALID,
            newTokens.verify(token, 0, length, new InetSocketAddress("192.0.2.8", 40_000), 0, mintedNs + 1));
        assertEquals(AddressValidator.INVALID, newTokens.verify(token, 0, length, CLIENT, 0, mintedNs - 1),
            "a token from the future");
    }

    @Test
    void aRetryTokenNeverPassesForANewTokenNorTheOtherWayRound()
    {
        final AddressValidator newTokens = AddressValidator.forNewTokens(key, LIFETIME_NS);
        final int length = AddressValidator.TOKEN_LENGTH;

        validator.mint(CLIENT, CLIENT_ID, 0, token, 0);
        assertEquals(AddressValidator.INVALID, newTokens.verify(token, 0, length, CLIENT, CLIENT_ID, 1));
        token.putByte(0, AddressValidator.NEW_TOKEN_FORMAT);
        assertEquals(AddressValidator.INVALID, newTokens.verify(token, 0, length, CLIENT, CLIENT_ID, 1),
            "a RETRY token relabelled");

        newTokens.mint(CLIENT, CLIENT_ID, 0, token, 0);
        assertEquals(AddressValidator.INVALID, validator.verify(token, 0, length, CLIENT, CLIENT_ID, 1));
        token.putByte(0, AddressValidator.RETRY_FORMAT);
        assertEquals(AddressValidator.INVALID, validator.verify(token, 0, length, CLIENT, CLIENT_ID, 1),
            "a NEW_TOKEN token relabelled");
    }

    @Test
    void anyChangedByteOfANewTokenInvalidatesIt()
    {
        final AddressValidator newTokens = AddressValidator.forNewTokens(key, LIFETIME_NS);
        newTokens.mint(CLIENT, 0, 0, token, 0);
        assertEquals(AddressValidator.VALID,
            newTokens.verify(token, 0, AddressValidator.TOKEN_LENGTH, CLIENT, 0, 1));
        for (int i = 0; i < AddressValidator.TOKEN_LENGTH; i++)
        {
            token.putByte(i, (byte)(token.getByte(i) ^ 0x01));
            assertEquals(AddressValidator.INVALID, newTokens.verify(
                token, 0, AddressValidator.TOKEN_LENGTH, CLIENT, 0, 1), "byte " + i);
            token.putByte(i, (byte)(token.getByte(i) ^ 0x01));
        }
    }

    @Test
    void ipv6AddressesAreBoundToo()
    {
        final InetSocketAddress client = new InetSocketAddress("2001:db8::1", 5000);
        validator.mint(client, CLIENT_ID, 0, token, 0);
        assertEquals(AddressValidator.VALID,
            validator.verify(token, 0, AddressValidator.TOKEN_LENGTH, client, CLIENT_ID, 1));
        assertEquals(AddressValidator.INVALID, validator.verify(
            token, 0, AddressValidator.TOKEN_LENGTH, new InetSocketAddress("2001:db8::2", 5000), CLIENT_ID, 1));
    }

    @Test
    void mintingAndVerifyingAllocateNothingForIpv4()
    {
        for (int i = 0; i < 20_000; i++)
        {
            validator.mint(CLIENT, i, i, token, 0);
            validator.verify(token, 0, AddressValidator.TOKEN_LENGTH, CLIENT, i, i + 1);
        }
        AllocationMeter.assertAllocationFree("mint and verify 5,000 tokens", () ->
        {
            for (int i = 0; i < 5_000; i++)
            {
                validator.mint(CLIENT, i, i, token, 0);
                validator.verify(token, 0, AddressValidator.TOKEN_LENGTH, CLIENT, i, i + 1);
            }
        });
    }
}
