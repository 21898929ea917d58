package io.pacelink.sim.scenario;

/**
 * What a flow's application does.
 *
 * @param kind           bulk, rate-limited or request/response.
 * @param messageBytes   size of each message the sender offers (request size for request/response).
 * @param bytesPerSecond offered rate for rate-limited flows.
 * @param responseBytes  size of each response for request/response flows.
 * @param intervalNs     time between requests for request/response flows.
 * @param bulkFromNs     for rate-limited flows: from this simulated time on the application always has data, like a
 *                       bulk one ({@link Long#MAX_VALUE}: never).
 */
public record AppPattern(
    Kind kind, int messageBytes, long bytesPerSecond, int responseBytes, long intervalNs, long bulkFromNs)
{
    /**
     * Kinds of application.
     */
    public enum Kind
    {
        /**
         * Always has data: offers as fast as the connection accepts.
         */
        BULK,

        /**
         * Offers at a fixed rate, one message at a time.
         */
        RATE_LIMITED,

        /**
         * Sends a request every interval; the server answers each with a response.
         */
        REQUEST_RESPONSE
    }

    /**
     * Message size bulk senders offer: large enough that offering is cheap, small enough to keep buffers busy.
     */
    public static final int DEFAULT_MESSAGE_BYTES = 16 * 1024;

    /**
     * @throws IllegalArgumentException if a size or rate does not fit the kind.
     */
    public AppPattern
    {
        if (messageBytes < 1)
        {
            throw new IllegalArgumentException("messageBytes must be positive: " + messageBytes);
        }
        if (Kind.RATE_LIMITED == kind && bytesPerSecond <= 0)
        {
            throw new IllegalArgumentException("a rate-limited flow needs a positive rate: " + bytesPerSecond);
        }
        if (Kind.REQUEST_RESPONSE == kind && (messageBytes < Long.BYTES || responseBytes < Long.BYTES ||
            intervalNs <= 0))
        {
            throw new IllegalArgumentException("a request/response flow needs requests and responses of at least " +
                Long.BYTES + " bytes (they carry the request's send time) and a positive interval");
        }
        if (bulkFromNs < 0 || (Long.MAX_VALUE != bulkFromNs && Kind.RATE_LIMITED != kind))
        {
            throw new IllegalArgumentException("only a rate-limited flow can turn bulk, at a time >= 0: " + bulkFromNs);
        }
    }

    /**
     * A pattern that never turns bulk.
     *
     * @param kind           bulk, rate-limited or request/response.
     * @param messageBytes   size of each message the sender offers (request size for request/response).
     * @param bytesPerSecond offered rate for rate-limited flows.
     * @param responseBytes  size of each response for request/response flows.
     * @param intervalNs     time between requests for request/response flows.
     */
    public AppPattern(
        final Kind kind, final int messageBytes, final long bytesPerSecond, final int responseBytes,
        final long intervalNs)
    {
        this(kind, messageBytes, bytesPerSecond, responseBytes, intervalNs, Long.MAX_VALUE);
    }

    /**
     * @param atNs simulated time from which the application always has data.
     * @return this rate-limited pattern, turning bulk at that time (an application-limited flow that becomes
     * network-limited).
     */
    public AppPattern thenBulkFrom(final long atNs)
    {
        return new AppPattern(kind, messageBytes, bytesPerSecond, responseBytes, intervalNs, atNs);
    }

    /**
     * @return an application that always has data.
     */
    public static AppPattern bulk()
    {
        return new AppPattern(Kind.BULK, DEFAULT_MESSAGE_BYTES, 0, 0, 0);
    }

    /**
     * @param bytesPerSecond the rate offered.
     * @return an application offering {@link #DEFAULT_MESSAGE_BYTES}-sized messages at that rate.
     */
    public static AppPattern rateLimited(final long bytesPerSecond)
    {
        return new AppPattern(Kind.RATE_LIMITED, DEFAULT_MESSAGE_BYTES, bytesPerSecond, 0, 0);
    }

    /**
     * @param requestBytes  size of each request.
     * @param responseBytes size of each response.
     * @param intervalNs    time between requests.
     * @return a request/response application.
     */
    public static AppPattern requestResponse(final int requestBytes, final int responseBytes, final long intervalNs)
    {
        return new AppPattern(Kind.REQUEST_RESPONSE, requestBytes, 0, responseBytes, intervalNs);
    }
}
