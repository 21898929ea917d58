package io.pacelink.perf.scale;

import io.pacelink.transport.PacelinkContext;

/**
 * Per-connection sizes a scale run may set instead of the transport's defaults; 0 keeps the default, so the same
 * harness measures the defaults (what a user gets) and hand-raised limits.
 *
 * @param sendBufferBytes      {@link PacelinkContext#sendBufferBytes(int)}, or 0.
 * @param receiveBufferBytes   {@link PacelinkContext#receiveBufferBytes(int)}, or 0.
 * @param sentPacketCapacity   {@link PacelinkContext#sentPacketCapacity(int)}, or 0.
 * @param countersBufferBytes  {@link PacelinkContext#countersBufferBytes(int)}, or 0.
 */
record EndpointSizing(int sendBufferBytes, int receiveBufferBytes, int sentPacketCapacity, int countersBufferBytes)
{
    /**
     * @param context to configure.
     * @return the context, with every non-zero size set.
     */
    PacelinkContext applyTo(final PacelinkContext context)
    {
        if (sendBufferBytes > 0)
        {
            context.sendBufferBytes(sendBufferBytes);
        }
        if (receiveBufferBytes > 0)
        {
            context.receiveBufferBytes(receiveBufferBytes);
        }
        if (sendBufferBytes > 0 || receiveBufferBytes > 0)
        {
            // A message must fit a buffer twice over (with its length prefix): keep the largest one that does.
            final int smallest = Math.min(sendBufferBytes > 0 ? sendBufferBytes : Integer.MAX_VALUE,
                receiveBufferBytes > 0 ? receiveBufferBytes : Integer.MAX_VALUE);
            context.maxMessageLengthBytes(Math.min(PacelinkContext.DEFAULT_MAX_MESSAGE_LENGTH_BYTES, smallest / 4));
        }
        if (sentPacketCapacity > 0)
        {
            context.sentPacketCapacity(sentPacketCapacity);
        }
        if (countersBufferBytes > 0)
        {
            context.countersBufferBytes(countersBufferBytes);
        }
        return context;
    }

    /**
     * @return the sizes as command-line arguments of {@link ScaleRole}.
     */
    String[] toArgs()
    {
        return new String[] { Integer.toString(sendBufferBytes), Integer.toString(receiveBufferBytes),
            Integer.toString(sentPacketCapacity), Integer.toString(countersBufferBytes) };
    }

    /**
     * @param args     command-line arguments.
     * @param fromIndex where the four sizes start.
     * @return the sizes.
     */
    static EndpointSizing fromArgs(final String[] args, final int fromIndex)
    {
        return new EndpointSizing(Integer.parseInt(args[fromIndex]), Integer.parseInt(args[fromIndex + 1]),
            Integer.parseInt(args[fromIndex + 2]), Integer.parseInt(args[fromIndex + 3]));
    }
}
