package io.pacelink.transport.port;

/**
 * The JNI binding of {@code src/main/native/pacelink_udp.c}: Linux's batched UDP system calls for
 * {@link BatchedDatagramPort}. Every argument is an int or a raw address, so no call creates a Java object or calls
 * back into the JVM; errors come back as negative {@code errno} values. Load the library first
 * ({@link NativeLibrary#load()}).
 * <p>
 * A batch is described in a descriptor array of {@link #SEND_STRIDE} or {@link #RECEIVE_STRIDE} bytes per message
 * whose layout the C side checks at compile time ({@code _Static_assert}). Socket addresses are Linux's
 * {@code sockaddr_in} / {@code sockaddr_in6} ({@link SocketAddressCodec}).
 */
final class NativeUdp
{
    /**
     * Most messages one {@link #send} or {@link #receive} hands the kernel.
     */
    static final int MAX_BATCH = 64;

    static final int SEND_STRIDE = 64;
    static final int SEND_ADDRESS = 0;
    static final int SEND_LENGTH = 8;
    static final int SEND_SEGMENT_SIZE = 12;
    static final int SEND_TOS = 16;
    static final int SEND_NAME_LENGTH = 20;
    static final int SEND_NAME = 24;
    static final int SEND_VECTOR_COUNT = 52;
    static final int SEND_VECTORS = 56;

    /**
     * Bytes of one {@code struct iovec} on 64-bit Linux: {@code void *iov_base}, {@code size_t iov_len}.
     */
    static final int IOVEC_BYTES = 16;
    static final int IOVEC_LENGTH = 8;

    static final int RECEIVE_STRIDE = 64;

    /**
     * Bytes of the {@code recvmmsg(2)} headers a port keeps for {@link #receive} ({@code struct pl_receive_headers}:
     * 64 {@code mmsghdr}, 64 {@code iovec} and 64 control buffers of 128 bytes on 64-bit Linux).
     */
    static final int RECEIVE_HEADERS_BYTES = 13_312;
    static final int RECEIVE_LENGTH = 0;
    static final int RECEIVE_FLAGS = 4;
    static final int RECEIVE_SEGMENT_SIZE = 8;
    static final int RECEIVE_TOS = 12;
    static final int RECEIVE_NAME_LENGTH = 16;
    static final int RECEIVE_NAME = 20;
    static final int RECEIVE_AGE_NS = 48;

    /**
     * {@link #RECEIVE_FLAGS}: the datagram was longer than its slot ({@code MSG_TRUNC}).
     */
    static final int FLAG_TRUNCATED = 1;

    /**
     * {@link #RECEIVE_FLAGS}: control messages were cut ({@code MSG_CTRUNC}).
     */
    static final int FLAG_CONTROL_TRUNCATED = 2;

    /**
     * {@link #await} result bit: the socket has a datagram (or an error) to receive.
     */
    static final int AWAIT_READABLE = 1;

    /**
     * {@link #await} result bit: {@link #wakeup} was called.
     */
    static final int AWAIT_WOKEN = 2;

    /**
     * {@link #await} result bit: a signal ended the wait ({@code EINTR}) before the socket was looked at.
     */
    static final int AWAIT_INTERRUPTED = 4;

    /**
     * Bytes of one {@code struct pollfd} on Linux: {@code int fd}, {@code short events}, {@code short revents}.
     */
    static final int POLLFD_BYTES = 8;

    /**
     * Bytes {@link #await} owns at its {@code armedAddress}: the timerfd's armed expiry and the count of its settings.
     */
    static final int AWAIT_TIMER_STATE_BYTES = 16;

    static final int EINTR = 4;
    static final int EIO = 5;
    static final int EAGAIN = 11;
    static final int ENOMEM = 12;
    static final int EINVAL = 22;
    static final int EMSGSIZE = 90;
    static final int ENOPROTOOPT = 92;
    static final int EOPNOTSUPP = 95;
    static final int ENOBUFS = 105;
    static final int ECONNREFUSED = 111;

    private NativeUdp()
    {
    }

    /**
     * @return a non-blocking UDP socket with SO_RCVBUF / SO_SNDBUF requested and the arriving TOS reported
     * ({@code IP_RECVTOS}; an IPv6 socket is dual-stack and also reports {@code IPV6_RECVTCLASS}), or −errno.
     */
    static native int open(boolean ipv6, int receiveBufferBytes, int sendBufferBytes);

    static native int bind(int fd, long nameAddress, int nameLength);

    /**
     * @param nameLength 0 dissolves the association ({@code AF_UNSPEC}).
     */
    static native int connect(int fd, long nameAddress, int nameLength);

    /**
     * @return the length of the local address written at {@code nameAddress} (28 bytes of room), or −errno.
     */
    static native int localAddress(int fd, long nameAddress);

    /**
     * @return the granted SO_RCVBUF ({@code receive}) or SO_SNDBUF, or −errno.
     */
    static native int socketBufferBytes(int fd, boolean receive);

    /**
     * @return 0 once {@code UDP_GRO} is on, or −errno (kernels before 5.0).
     */
    static native int enableGro(int fd);

    /**
     * Ask for each datagram's kernel receive time ({@code SO_TIMESTAMPNS}); {@link #receive} then reports its age in
     * {@link #RECEIVE_AGE_NS}.
     *
     * @return 0 once on, or −errno.
     */
    static native int enableTimestamps(int fd);

    /**
     * Set the TOS byte (IP_TOS, and IPV6_TCLASS on an IPv6 socket) of the datagrams sent without a control message
     * for it.
     *
     * @return 0, or −errno.
     */
    static native int setTos(int fd, boolean ipv6, int tos);

    /**
     * {@code sendmmsg(2)} of up to {@link #MAX_BATCH} described messages; one message without a GSO segment size or a
     * TOS of its own (no control message) goes by {@code sendto(2)}, which sends it the same way.
     *
     * @return the messages sent (from the first), or −errno if the first failed.
     */
    static native int send(int fd, long descriptors, int count);

    /**
     * Build the {@code recvmmsg(2)} headers of up to {@link #MAX_BATCH} messages in {@code headers}
     * ({@link #RECEIVE_HEADERS_BYTES}, 8-byte aligned): message i into {@code buffer + i * slotBytes}, its source into
     * descriptor i. They stay valid for {@link #receive} of at most {@code count} messages until the buffer, the
     * descriptors or the slot size change.
     *
     * @return the messages prepared.
     */
    static native int prepareReceive(long headers, long descriptors, int count, long buffer, int slotBytes);

    /**
     * {@code recvmmsg(2)} of up to {@code count} messages with the headers {@link #prepareReceive} built, which it
     * leaves ready for the next call; each message's outcome goes to its descriptor.
     *
     * @return the messages received, or −errno ({@link #EAGAIN} when none waits).
     */
    static native int receive(int fd, long headers, long descriptors, int count);

    /**
     * @return a non-blocking eventfd for {@link #wakeup}, or −errno.
     */
    static native int eventFd();

    /**
     * @return a non-blocking {@code CLOCK_MONOTONIC} timerfd for {@link #await}'s deadlines, or −errno.
     */
    static native int timerFd();

    /**
     * {@code ppoll(2)} on the socket and the eventfd (which it drains) until a deadline {@code timeoutNs} from now.
     * With a timerfd the {@code ppoll} has no timeout: the deadline is the timerfd's expiry, kept armed across waits
     * and set ({@code timerfd_settime}) only when the deadline is earlier than the armed expiry or that has passed;
     * an earlier expiry kept from a wait before ends a sleep before its deadline, and the call sleeps on. Without one
     * (−1), or for a timeout of 0, {@code ppoll} takes the timeout itself.
     *
     * @param fd           the socket, or −1 not to look at it.
     * @param eventFd      the eventfd of {@link #wakeup}.
     * @param timerFd      a timerfd of {@link #timerFd}, or −1.
     * @param armedAddress two longs this call owns for {@code timerFd}: the armed expiry ({@code CLOCK_MONOTONIC}
     *                     nanoseconds; 0 before the first call) and a count of the {@code timerfd_settime} calls.
     * @param timeoutNs    the longest wait; negative waits without a limit (only without a timerfd).
     * @return {@link #AWAIT_READABLE} and/or {@link #AWAIT_WOKEN}, 0 at the deadline, {@link #AWAIT_INTERRUPTED} on
     * a signal, or −errno.
     */
    static native int await(int fd, int eventFd, int timerFd, long armedAddress, long timeoutNs);

    /**
     * {@code ppoll(2)} on {@code count} sockets whose descriptors are written at {@code pollfdsAddress}, one
     * {@code struct pollfd} ({@link #POLLFD_BYTES} bytes, the descriptor first) each.
     *
     * @param timeoutNs the longest wait; negative waits without a limit.
     * @return the sockets readable, 0 on the timeout, {@code count} on a signal, or −errno.
     */
    static native int awaitAny(long pollfdsAddress, int count, long timeoutNs);

    static native int wakeup(int eventFd);

    static native int close(int fd);

    /**
     * {@code prctl(PR_SET_TIMERSLACK)} for the calling thread.
     */
    static native int setTimerSlackNs(long slackNs);

    /**
     * {@code sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK)} for the calling thread.
     */
    static native int setRealtimePriority(int priority);

    /**
     * @return {@code strerror(error)}.
     */
    static native String errorText(int error);

    /**
     * @param result a negative result of a call here.
     * @return e.g. "Connection refused (errno 111)".
     */
    static String describe(final int result)
    {
        return errorText(-result) + " (errno " + -result + ")";
    }
}
