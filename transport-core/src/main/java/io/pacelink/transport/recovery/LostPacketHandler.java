package io.pacelink.transport.recovery;

/**
 * Receives each packet {@link LossDetector} declares lost, so the owner of bytes in flight can account for it.
 */
@FunctionalInterface
interface LostPacketHandler
{
    /**
     * @param slot ring slot of the packet, already in state {@link SentPacketRing#LOST}.
     */
    void onPacketDeclaredLost(int slot);
}
