/*
 * The Linux system calls behind io.pacelink.transport.port.BatchedDatagramPort (docs/io.md): sendmmsg(2) and
 * recvmmsg(2) with UDP GSO (UDP_SEGMENT) and GRO (UDP_GRO) control messages, the IP_TOS / IPV6_TCLASS byte per
 * datagram in both directions, and a wait on the socket and an eventfd until a nanosecond deadline (ppoll(2) beside a
 * timerfd(2) that stays armed across waits).
 *
 * The shim keeps no state: Java owns every buffer and passes raw addresses (longs) and ints, so a call makes no JNI
 * up-call and creates no Java object. Each batch is described in a descriptor array whose layout Java writes and
 * reads (NativeUdp.java); a send's msghdr, iovec and control-message arrays are built on this thread's stack per call,
 * a receive's are kept in memory the port owns and built once (struct pl_receive_headers).
 * Errors come back as negative errno values.
 *
 * Built by transport-core's Maven build with the machine's gcc (profile "native"); javac -h generates the header
 * that declares each function, so a signature that drifts from NativeUdp.java fails the build.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>

#include "io_pacelink_transport_port_NativeUdp.h"

/* Older C libraries lack the UDP GSO/GRO names; the values are Linux's (include/uapi/linux/udp.h). */
#ifndef SOL_UDP
#define SOL_UDP 17
#endif
#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif

/* Most messages one call hands the kernel: bounds the arrays on the stack (about 15 KiB). */
#define PL_MAX_BATCH 64
#define PL_RECEIVE_CONTROL_BYTES 128

/* One datagram (or one GSO run) to send: NativeUdp.SEND_* offsets. */
struct pl_send
{
    uint64_t address;        /* first byte */
    int32_t length;          /* bytes in all */
    int32_t segment_size;    /* > 0: one UDP_SEGMENT send of length / segment_size datagrams */
    int32_t tos;             /* < 0: no IP_TOS / IPV6_TCLASS control message */
    int32_t name_length;     /* bytes of name: 16 (sockaddr_in) or 28 (sockaddr_in6); 0: no msg_name, the
                                connected socket's own peer (name still holds it, for its family) */
    uint8_t name[28];
    int32_t vector_count;    /* > 0: the message is these iovecs at vectors (a datagram gathered from the send batch
                                and the send log's bytes in place), and address and length are not read */
    uint64_t vectors;        /* struct iovec[vector_count] in memory Java owns */
};

/* One message received: NativeUdp.RECEIVE_* offsets. */
struct pl_receive
{
    int32_t length;          /* bytes received (for a GRO super-datagram, all of its segments) */
    int32_t flags;           /* 1: truncated (MSG_TRUNC), 2: control data truncated (MSG_CTRUNC) */
    int32_t segment_size;    /* > 0: a GRO super-datagram of segments this long (the last may be shorter) */
    int32_t tos;             /* the TOS / traffic class byte it arrived with, -1 if not reported */
    int32_t name_length;
    uint8_t name[28];
    int64_t age_ns;          /* how long before the call returned the kernel received it (SO_TIMESTAMPNS), -1 if
                                not reported */
    uint8_t reserved[8];
};

_Static_assert(sizeof(struct pl_send) == 64, "NativeUdp.SEND_STRIDE");
_Static_assert(offsetof(struct pl_send, length) == 8, "NativeUdp.SEND_LENGTH");
_Static_assert(offsetof(struct pl_send, segment_size) == 12, "NativeUdp.SEND_SEGMENT_SIZE");
_Static_assert(offsetof(struct pl_send, tos) == 16, "NativeUdp.SEND_TOS");
_Static_assert(offsetof(struct pl_send, name_length) == 20, "NativeUdp.SEND_NAME_LENGTH");
_Static_assert(offsetof(struct pl_send, name) == 24, "NativeUdp.SEND_NAME");
_Static_assert(offsetof(struct pl_send, vector_count) == 52, "NativeUdp.SEND_VECTOR_COUNT");
_Static_assert(offsetof(struct pl_send, vectors) == 56, "NativeUdp.SEND_VECTORS");
_Static_assert(sizeof(struct iovec) == 16 && offsetof(struct iovec, iov_len) == 8, "NativeUdp.IOVEC_BYTES");
_Static_assert(sizeof(struct pl_receive) == 64, "NativeUdp.RECEIVE_STRIDE");
_Static_assert(offsetof(struct pl_receive, flags) == 4, "NativeUdp.RECEIVE_FLAGS");
_Static_assert(offsetof(struct pl_receive, segment_size) == 8, "NativeUdp.RECEIVE_SEGMENT_SIZE");
_Static_assert(offsetof(struct pl_receive, tos) == 12, "NativeUdp.RECEIVE_TOS");
_Static_assert(offsetof(struct pl_receive, name_length) == 16, "NativeUdp.RECEIVE_NAME_LENGTH");
_Static_assert(offsetof(struct pl_receive, name) == 20, "NativeUdp.RECEIVE_NAME");
_Static_assert(offsetof(struct pl_receive, age_ns) == 48, "NativeUdp.RECEIVE_AGE_NS");
_Static_assert(sizeof(struct sockaddr_in6) == 28, "NativeUdp.SOCKADDR_IN6_LENGTH");
_Static_assert(AF_INET == 2 && AF_INET6 == 10, "NativeUdp.AF_INET, AF_INET6");

/*
 * The port's data-path system calls go to the kernel through syscall(2), not through glibc's recvmsg, recvmmsg,
 * sendmmsg and sendto. Those are POSIX cancellation points (pthreads(7)): in a process with more than one thread,
 * which a JVM always is, glibc wraps each in __pthread_enable_asynccancel and __pthread_disable_asynccancel (sysdeps/
 * unix/sysdep.h, SYSCALL_CANCEL), an atomic compare-and-swap on the thread's cancellation state on each side of the
 * call, so that a pthread_cancel(3) can act on a thread blocked in it. A busy-spinning endpoint makes one such call
 * per turn and finds the socket empty on almost all of them; the two wrappers took about 7 % of its thread
 * (perf/FINDINGS.md, branch lat19), and one of each lies on the path from a request's arrival to its answer's send.
 * Leaving them out changes nothing else: the calls here never block (MSG_DONTWAIT on a non-blocking socket), and no
 * thread that makes them is ever cancelled — HotSpot never calls pthread_cancel on a Java thread (Thread.interrupt
 * and the JDK's own interruptible I/O use other means), and the shim creates no thread. syscall(2) returns -1 and
 * sets errno on failure, as the wrappers do.
 */
#define PL_RECVMSG(fd, header, flags) syscall(SYS_recvmsg, (fd), (header), (flags))
#define PL_RECVMMSG(fd, messages, count, flags) syscall(SYS_recvmmsg, (fd), (messages), (count), (flags), NULL)
#define PL_SENDMMSG(fd, messages, count, flags) syscall(SYS_sendmmsg, (fd), (messages), (count), (flags))
#define PL_SENDTO(fd, data, length, flags, name, name_length) \
    syscall(SYS_sendto, (fd), (data), (length), (flags), (name), (name_length))

static int set_int_option(const int fd, const int level, const int name, const int value)
{
    return setsockopt(fd, level, name, &value, sizeof(value));
}

/*
 * Ask for a socket buffer of the requested size. The kernel caps SO_RCVBUF / SO_SNDBUF at net.core.rmem_max /
 * wmem_max (socket(7)), which in a network namespace cannot be raised and defaults to a few MiB; a privileged process
 * (CAP_NET_ADMIN) may go past the cap with SO_RCVBUFFORCE / SO_SNDBUFFORCE, as quic-go does for its receive buffer.
 * So when the plain request was capped, the forced one is tried, and its refusal (EPERM: not privileged) is no
 * error: the socket keeps what the kernel granted. The kernel doubles either value for its bookkeeping, so a request
 * granted in full reads back as twice its size.
 */
static int set_buffer_bytes(const int fd, const int name, const int force_name, const int bytes)
{
    if (set_int_option(fd, SOL_SOCKET, name, bytes) < 0)
    {
        return -1;
    }
    int granted = 0;
    socklen_t length = sizeof(granted);
    if (getsockopt(fd, SOL_SOCKET, name, &granted, &length) == 0 && granted / 2 < bytes)
    {
        (void)set_int_option(fd, SOL_SOCKET, force_name, bytes);
    }
    return 0;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_open(
    JNIEnv *env, jclass klass, jboolean ipv6, jint receive_buffer_bytes, jint send_buffer_bytes)
{
    const int fd = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
    {
        return -errno;
    }
    int failed = set_buffer_bytes(fd, SO_RCVBUF, SO_RCVBUFFORCE, receive_buffer_bytes) ||
        set_buffer_bytes(fd, SO_SNDBUF, SO_SNDBUFFORCE, send_buffer_bytes) ||
        /* The arriving TOS byte as a control message (ip(7)); an IPv6 socket also hears IPv4-mapped peers. */
        set_int_option(fd, IPPROTO_IP, IP_RECVTOS, 1);
    if (!failed && ipv6)
    {
        failed = set_int_option(fd, IPPROTO_IPV6, IPV6_V6ONLY, 0) ||
            set_int_option(fd, IPPROTO_IPV6, IPV6_RECVTCLASS, 1);
    }
    if (failed)
    {
        const int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_bind(
    JNIEnv *env, jclass klass, jint fd, jlong name, jint name_length)
{
    return bind(fd, (const struct sockaddr *)(intptr_t)name, (socklen_t)name_length) < 0 ? -errno : 0;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_connect(
    JNIEnv *env, jclass klass, jint fd, jlong name, jint name_length)
{
    if (0 == name_length)
    {
        /* Dissolve the association: connect(2) with AF_UNSPEC. */
        struct sockaddr unspecified;
        memset(&unspecified, 0, sizeof(unspecified));
        unspecified.sa_family = AF_UNSPEC;
        return connect(fd, &unspecified, sizeof(unspecified)) < 0 ? -errno : 0;
    }
    return connect(fd, (const struct sockaddr *)(intptr_t)name, (socklen_t)name_length) < 0 ? -errno : 0;
}

/*
 * The TOS byte (ECN codepoint) of every datagram sent without an IP_TOS / IPV6_TCLASS control message. A connected
 * socket that sends with neither a destination nor an IP-level control message keeps the kernel's fast path: the
 * route cached at connect(2) instead of a route lookup per message (udp_sendmsg: any IP-level control message turns
 * the connected path off; a UDP_SEGMENT one alone keeps it since Linux 6.9, commit 680d11f6e542). An IPv6 socket
 * sets both bytes: IP_TOS for IPv4-mapped peers, IPV6_TCLASS for the others.
 */
JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_setTos(
    JNIEnv *env, jclass klass, jint fd, jboolean ipv6, jint tos)
{
    if (set_int_option(fd, IPPROTO_IP, IP_TOS, tos) < 0)
    {
        return -errno;
    }
    return ipv6 && set_int_option(fd, IPPROTO_IPV6, IPV6_TCLASS, tos) < 0 ? -errno : 0;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_localAddress(
    JNIEnv *env, jclass klass, jint fd, jlong name)
{
    socklen_t length = sizeof(struct sockaddr_in6);
    return getsockname(fd, (struct sockaddr *)(intptr_t)name, &length) < 0 ? -errno : (jint)length;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_socketBufferBytes(
    JNIEnv *env, jclass klass, jint fd, jboolean receive)
{
    int value = 0;
    socklen_t length = sizeof(value);
    return getsockopt(fd, SOL_SOCKET, receive ? SO_RCVBUF : SO_SNDBUF, &value, &length) < 0 ? -errno : value;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_enableGro(JNIEnv *env, jclass klass, jint fd)
{
    return set_int_option(fd, SOL_UDP, UDP_GRO, 1) < 0 ? -errno : 0;
}

/*
 * The kernel's receive time of each datagram as an SCM_TIMESTAMPNS control message (socket(7), SO_TIMESTAMPNS): the
 * software timestamp the stack takes as the packet enters it (net_timestamp_check in net/core/dev.c), before the
 * socket queue and however late the receiving thread runs. Linux TCP times its ACKs the same way (tp->tcp_mstamp
 * is read as the ACK is processed in the receive softirq).
 */
JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_enableTimestamps(
    JNIEnv *env, jclass klass, jint fd)
{
    return set_int_option(fd, SOL_SOCKET, SO_TIMESTAMPNS, 1) < 0 ? -errno : 0;
}

static int is_v4_mapped(const struct pl_send *send)
{
    if (AF_INET6 != ((const struct sockaddr *)send->name)->sa_family)
    {
        return 0;
    }
    return IN6_IS_ADDR_V4MAPPED(&((const struct sockaddr_in6 *)send->name)->sin6_addr);
}

/* Append a control message with an int to a message's control area; returns the bytes used. */
static size_t put_int_control(
    uint8_t *control, const size_t offset, const int level, const int type, const void *value, const size_t size)
{
    struct cmsghdr *header = (struct cmsghdr *)(control + offset);
    header->cmsg_level = level;
    header->cmsg_type = type;
    header->cmsg_len = CMSG_LEN(size);
    memcpy(CMSG_DATA(header), value, size);
    return CMSG_SPACE(size);
}

/* sendmmsg(2) of n described messages, their headers built on this call's stack (about 8 KiB). */
static __attribute__((noinline)) jint send_messages(const jint fd, struct pl_send *sends, const int n)
{
    struct mmsghdr messages[PL_MAX_BATCH];
    struct iovec vectors[PL_MAX_BATCH];
    /* Room for UDP_SEGMENT (a uint16_t) and IP_TOS or IPV6_TCLASS (an int), each padded as CMSG_SPACE says. */
    uint64_t control[PL_MAX_BATCH][(2 * CMSG_SPACE(sizeof(int)) + 7) / 8];

    memset(messages, 0, sizeof(messages[0]) * (size_t)n);
    for (int i = 0; i < n; i++)
    {
        struct pl_send *send = &sends[i];
        struct msghdr *header = &messages[i].msg_hdr;
        if (send->vector_count > 0)
        {
            /* Gathered: the kernel copies each datagram from its parts (header, payload in place, trailer), and a
               UDP_SEGMENT message is cut into datagrams of segment_size whatever the vectors' boundaries
               (ip_append_data reads the message through one iov_iter). */
            header->msg_iov = (struct iovec *)(intptr_t)send->vectors;
            header->msg_iovlen = (size_t)send->vector_count;
        }
        else
        {
            vectors[i].iov_base = (void *)(intptr_t)send->address;
            vectors[i].iov_len = (size_t)send->length;
            header->msg_iov = &vectors[i];
            header->msg_iovlen = 1;
        }
        if (send->name_length > 0)
        {
            header->msg_name = send->name;
            header->msg_namelen = (socklen_t)send->name_length;
        }
        size_t control_length = 0;
        uint8_t *area = (uint8_t *)control[i];
        if (send->segment_size > 0)
        {
            /* udp(7): UDP_SEGMENT splits the payload into segment_size datagrams in the kernel or the NIC. */
            const uint16_t segment = (uint16_t)send->segment_size;
            control_length += put_int_control(area, control_length, SOL_UDP, UDP_SEGMENT, &segment, sizeof(segment));
        }
        if (send->tos >= 0)
        {
            const int tos = send->tos;
            if (AF_INET == ((const struct sockaddr *)send->name)->sa_family || is_v4_mapped(send))
            {
                control_length += put_int_control(area, control_length, IPPROTO_IP, IP_TOS, &tos, sizeof(tos));
            }
            else
            {
                control_length +=
                    put_int_control(area, control_length, IPPROTO_IPV6, IPV6_TCLASS, &tos, sizeof(tos));
            }
        }
        if (control_length > 0)
        {
            header->msg_control = area;
            header->msg_controllen = control_length;
        }
    }
    const long sent = PL_SENDMMSG(fd, messages, (unsigned int)n, MSG_DONTWAIT);
    return sent < 0 ? -errno : (jint)sent;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_send(
    JNIEnv *env, jclass klass, jint fd, jlong descriptors, jint count)
{
    const int n = count < PL_MAX_BATCH ? count : PL_MAX_BATCH;
    struct pl_send *sends = (struct pl_send *)(intptr_t)descriptors;
    if (1 == n && sends[0].segment_size <= 0 && sends[0].tos < 0 && sends[0].vector_count <= 0)
    {
        /*
         * One datagram without control messages, written whole (a lone answer, an ACK; a gathered one goes by
         * sendmmsg, its iovecs): sendto(2) sends it exactly as sendmmsg(2)
         * would its one message — the same udp_sendmsg with the same destination (none on a connected socket) and
         * no control data — without copying a msghdr and an iovec in (copy_msghdr_from_user, import_iovec) and
         * without __sys_sendmmsg's loop, which writes msg_len back (Linux net/socket.c); and without building the
         * headers of a batch. Like sendmmsg's count, 1 says it was sent; sendmmsg failing its first message
         * reports that message's error, as sendto does.
         */
        const struct pl_send *send = &sends[0];
        const long sent = PL_SENDTO(fd, (const void *)(intptr_t)send->address, (size_t)send->length, MSG_DONTWAIT,
            send->name_length > 0 ? (const struct sockaddr *)send->name : NULL,
            (socklen_t)(send->name_length > 0 ? send->name_length : 0));
        return sent < 0 ? -errno : 1;
    }
    return n > 0 ? send_messages(fd, sends, n) : 0;
}

/*
 * The recvmmsg(2) headers of one port, kept between its receives in memory Java owns (NativeUdp.RECEIVE_HEADERS_BYTES,
 * written by prepareReceive): message i reads into buffer + i * slot_bytes, its source into descriptor i's name and
 * its control messages into control[i]. A busy-spinning endpoint receives far more often than anything arrives, and
 * building 64 headers per call cost it about a quarter of its thread (perf/FINDINGS.md, branch lat11); so they are
 * built once, and after a call only the fields the kernel wrote back are set again (msg_namelen and msg_controllen,
 * which it shortens to what it used, and msg_flags).
 */
struct pl_receive_headers
{
    struct mmsghdr messages[PL_MAX_BATCH];
    struct iovec vectors[PL_MAX_BATCH];
    uint64_t control[PL_MAX_BATCH][PL_RECEIVE_CONTROL_BYTES / 8];
};

_Static_assert(sizeof(struct pl_receive_headers) == 13312, "NativeUdp.RECEIVE_HEADERS_BYTES");

static void reset_receive_header(struct pl_receive_headers *headers, struct pl_receive *receives, const int i)
{
    struct msghdr *header = &headers->messages[i].msg_hdr;
    header->msg_name = receives[i].name;
    header->msg_namelen = sizeof(receives[i].name);
    header->msg_control = headers->control[i];
    header->msg_controllen = PL_RECEIVE_CONTROL_BYTES;
    header->msg_flags = 0;
    headers->messages[i].msg_len = 0;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_prepareReceive(
    JNIEnv *env, jclass klass, jlong headers_address, jlong descriptors, jint count, jlong buffer, jint slot_bytes)
{
    struct pl_receive_headers *headers = (struct pl_receive_headers *)(intptr_t)headers_address;
    struct pl_receive *receives = (struct pl_receive *)(intptr_t)descriptors;
    const int n = count < PL_MAX_BATCH ? count : PL_MAX_BATCH;
    memset(headers, 0, sizeof(*headers));
    for (int i = 0; i < n; i++)
    {
        headers->vectors[i].iov_base = (void *)(intptr_t)(buffer + (jlong)i * slot_bytes);
        headers->vectors[i].iov_len = (size_t)slot_bytes;
        headers->messages[i].msg_hdr.msg_iov = &headers->vectors[i];
        headers->messages[i].msg_hdr.msg_iovlen = 1;
        reset_receive_header(headers, receives, i);
    }
    return n;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_receive(
    JNIEnv *env, jclass klass, jint fd, jlong headers_address, jlong descriptors, jint count)
{
    struct pl_receive_headers *headers = (struct pl_receive_headers *)(intptr_t)headers_address;
    struct mmsghdr *messages = headers->messages;
    struct pl_receive *receives = (struct pl_receive *)(intptr_t)descriptors;
    const int n = count < PL_MAX_BATCH ? count : PL_MAX_BATCH;

    int received;
    if (1 == n)
    {
        /*
         * One message (a busy-spinning receive right after an empty one): recvmsg(2) reads it exactly as recvmmsg(2)
         * would (recvmmsg's msg_len is what recvmsg returns: the bytes copied, MSG_TRUNC in msg_flags if the datagram
         * was longer; the same control messages), without do_recvmmsg's loop and timeout handling around the same
         * ___sys_recvmsg (Linux net/socket.c) — on the path of every spin turn that finds the socket empty.
         */
        const long length = PL_RECVMSG(fd, &messages[0].msg_hdr, MSG_DONTWAIT);
        if (length >= 0)
        {
            messages[0].msg_len = (unsigned int)length;
        }
        received = length < 0 ? -1 : 1;
    }
    else
    {
        received = (int)PL_RECVMMSG(fd, messages, (unsigned int)n, MSG_DONTWAIT);
    }
    if (received < 0)
    {
        const int error = errno;
        /* Nothing was written back for an empty socket; after another error the first header is set again. */
        if (EAGAIN != error)
        {
            reset_receive_header(headers, receives, 0);
        }
        return -error;
    }
    /*
     * SCM_TIMESTAMPNS is CLOCK_REALTIME; the caller's clock is its own. So each datagram's stamp leaves as an age:
     * the realtime clock read once after the call, minus the stamp. The caller subtracts it from its own time of the
     * batch, which it reads after this returns, so an arrival is never placed before the kernel saw it.
     */
    struct timespec returned = { 0, 0 };
    int has_returned = 0;
    for (int i = 0; i < received; i++)
    {
        struct msghdr *header = &messages[i].msg_hdr;
        struct pl_receive *receive = &receives[i];
        receive->age_ns = -1;
        receive->length = (int32_t)messages[i].msg_len;
        receive->flags = ((header->msg_flags & MSG_TRUNC) ? 1 : 0) | ((header->msg_flags & MSG_CTRUNC) ? 2 : 0);
        receive->segment_size = 0;
        receive->tos = -1;
        receive->name_length = (int32_t)header->msg_namelen;
        for (struct cmsghdr *cmsg = CMSG_FIRSTHDR(header); NULL != cmsg; cmsg = CMSG_NXTHDR(header, cmsg))
        {
            if (SOL_UDP == cmsg->cmsg_level && UDP_GRO == cmsg->cmsg_type)
            {
                int segment = 0;
                memcpy(&segment, CMSG_DATA(cmsg), sizeof(segment));
                receive->segment_size = segment;
            }
            else if (IPPROTO_IP == cmsg->cmsg_level && IP_TOS == cmsg->cmsg_type)
            {
                /* ip(7): IP_RECVTOS delivers the TOS as one byte. */
                receive->tos = *(const uint8_t *)CMSG_DATA(cmsg);
            }
            else if (IPPROTO_IPV6 == cmsg->cmsg_level && IPV6_TCLASS == cmsg->cmsg_type)
            {
                int traffic_class = 0;
                memcpy(&traffic_class, CMSG_DATA(cmsg), sizeof(traffic_class));
                receive->tos = traffic_class & 0xff;
            }
            else if (SOL_SOCKET == cmsg->cmsg_level && SCM_TIMESTAMPNS == cmsg->cmsg_type)
            {
                struct timespec stamp;
                memcpy(&stamp, CMSG_DATA(cmsg), sizeof(stamp));
                if (!has_returned)
                {
                    has_returned = 0 == clock_gettime(CLOCK_REALTIME, &returned) ? 1 : -1;
                }
                if (has_returned > 0)
                {
                    receive->age_ns = (int64_t)(returned.tv_sec - stamp.tv_sec) * 1000000000LL +
                        (int64_t)(returned.tv_nsec - stamp.tv_nsec);
                }
            }
        }
    }
    /* The kernel wrote back the headers it filled, and may have begun on the next one before it stopped. */
    for (int i = 0; i < n && i <= received; i++)
    {
        reset_receive_header(headers, receives, i);
    }
    return received;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_eventFd(JNIEnv *env, jclass klass)
{
    const int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_timerFd(JNIEnv *env, jclass klass)
{
    const int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

static int64_t monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* Bits of a ppoll's outcome on the socket and the eventfd (which it drains); 0 if neither is ready. */
static int socket_and_wakeup(struct pollfd *fds, const int event_fd)
{
    int result = 0;
    /* POLLERR: an ICMP error is queued on a connected socket; the next receive reports it. */
    if (0 != (fds[0].revents & (POLLIN | POLLERR)))
    {
        result |= 1;
    }
    if (0 != (fds[1].revents & POLLIN))
    {
        /* One read returns the whole count and resets it (eventfd(2), without EFD_SEMAPHORE): a second read would
         * only find EAGAIN, a system call for nothing. */
        uint64_t value;
        const ssize_t drained = read(event_fd, &value, sizeof(value));
        (void)drained;
        result |= 2;
    }
    return result;
}

/*
 * The wait until a deadline with a timerfd: ppoll(2) without a timeout on the socket, the eventfd and the timerfd,
 * whose expiry (CLOCK_MONOTONIC, absolute) is kept at *armed_ns across waits. A ppoll with a timeout arms a
 * high-resolution timer on the way into every sleep and cancels it on the way out; when it is the CPU's earliest
 * timer each of the two reprograms the clock event device (Linux kernel/time/hrtimer.c, hrtimer_reprogram /
 * __remove_hrtimer), which on a KVM guest's lapic-deadline timer is an MSR write that exits to the hypervisor — on
 * the path of every wake-up by a datagram. Here the timer is set (timerfd_settime(2)) only when the deadline is earlier
 * than the armed expiry or the armed expiry has passed: a later deadline keeps the earlier expiry, which then ends a
 * sleep early; the loop below sees the deadline not yet reached and sleeps again with the timer moved to it. So a
 * sleep ends at its deadline, never later, and a wake-up by a datagram or the eventfd neither arms nor cancels
 * anything. An expiry is never read: timerfd_settime resets the expiration count (Linux fs/timerfd.c, timerfd_setup),
 * and an expiry that passed is always re-armed before the next sleep. *armed_ns[1] counts the timerfd_settime calls.
 */
static int await_deadline(
    struct pollfd *fds, const int event_fd, const int timer_fd, int64_t *armed_ns, const int64_t timeout_ns)
{
    int64_t now_ns = monotonic_ns();
    /* Saturated: a timeout so long that the deadline would overflow waits as long as a timerfd can. */
    const int64_t deadline_ns = timeout_ns > INT64_MAX - now_ns ? INT64_MAX : now_ns + timeout_ns;
    fds[2].fd = timer_fd;
    fds[2].events = POLLIN;
    for (;;)
    {
        if (armed_ns[0] <= now_ns || deadline_ns < armed_ns[0])
        {
            struct itimerspec expiry;
            memset(&expiry, 0, sizeof(expiry));
            expiry.it_value.tv_sec = (time_t)(deadline_ns / 1000000000LL);
            expiry.it_value.tv_nsec = (long)(deadline_ns % 1000000000LL);
            if (timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &expiry, NULL) < 0)
            {
                return -errno;
            }
            armed_ns[0] = deadline_ns;
            armed_ns[1]++;
        }
        fds[0].revents = 0;
        fds[1].revents = 0;
        fds[2].revents = 0;
        const int ready = ppoll(fds, 3, NULL, NULL);
        if (ready < 0)
        {
            /* A signal cut the wait short: the socket was not looked at, so the caller must not take it as empty. */
            return EINTR == errno ? 4 : -errno;
        }
        const int result = socket_and_wakeup(fds, event_fd);
        if (0 != result)
        {
            return result;
        }
        /* Only the timer: the deadline, or an earlier expiry kept from a wait before (then sleep on to the deadline). */
        now_ns = monotonic_ns();
        if (now_ns >= deadline_ns)
        {
            return 0;
        }
    }
}

/*
 * The wait on the socket (fd; -1: not looked at) and the eventfd for at most timeout_ns: ppoll(2) with a timeout when
 * timer_fd is -1 or the timeout is 0 (a look without a sleep, which arms no timer), else await_deadline.
 */
JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_await(
    JNIEnv *env, jclass klass, jint fd, jint event_fd, jint timer_fd, jlong armed_address, jlong timeout_ns)
{
    struct pollfd fds[3];
    fds[0].fd = fd;
    fds[0].events = POLLIN;
    fds[0].revents = 0;
    fds[1].fd = event_fd;
    fds[1].events = POLLIN;
    fds[1].revents = 0;
    if (timer_fd >= 0 && timeout_ns > 0)
    {
        return await_deadline(fds, event_fd, timer_fd, (int64_t *)(intptr_t)armed_address, timeout_ns);
    }
    struct timespec timeout;
    timeout.tv_sec = (time_t)(timeout_ns / 1000000000LL);
    timeout.tv_nsec = (long)(timeout_ns % 1000000000LL);
    const int ready = ppoll(fds, 2, timeout_ns < 0 ? NULL : &timeout, NULL);
    if (ready < 0)
    {
        /* A signal cut the wait short: the socket was not looked at, so the caller must not take it as empty. */
        return EINTR == errno ? 4 : -errno;
    }
    return socket_and_wakeup(fds, event_fd);
}

/*
 * ppoll(2) on a set of sockets at once (PortGroupWait): Java writes each pollfd's fd into an array it owns (8 bytes an
 * entry, struct pollfd's layout on Linux); the events are set here, so Java needs no poll.h constant. Returns how many
 * sockets are readable (POLLERR counts: the next receive reports the queued ICMP error), 0 on the timeout, the count
 * itself on a signal (the sockets were not looked at, so the caller must read them rather than take them as empty),
 * or -errno.
 */
JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_awaitAny(
    JNIEnv *env, jclass klass, jlong pollfds, jint count, jlong timeout_ns)
{
    struct pollfd *fds = (struct pollfd *)(intptr_t)pollfds;
    for (jint i = 0; i < count; i++)
    {
        fds[i].events = POLLIN;
        fds[i].revents = 0;
    }
    struct timespec timeout;
    timeout.tv_sec = (time_t)(timeout_ns / 1000000000LL);
    timeout.tv_nsec = (long)(timeout_ns % 1000000000LL);
    const int ready = ppoll(fds, (nfds_t)count, timeout_ns < 0 ? NULL : &timeout, NULL);
    if (ready < 0)
    {
        return EINTR == errno ? count : -errno;
    }
    return ready;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_wakeup(JNIEnv *env, jclass klass, jint event_fd)
{
    const uint64_t one = 1;
    /* EAGAIN means the counter is full: a wake-up is pending anyway. */
    return write(event_fd, &one, sizeof(one)) < 0 && EAGAIN != errno ? -errno : 0;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_close(JNIEnv *env, jclass klass, jint fd)
{
    return close(fd) < 0 ? -errno : 0;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_setTimerSlackNs(
    JNIEnv *env, jclass klass, jlong slack_ns)
{
    /* prctl(2) PR_SET_TIMERSLACK, for the calling thread: how late the kernel may end its timed waits. */
    return prctl(PR_SET_TIMERSLACK, (unsigned long)slack_ns, 0, 0, 0) < 0 ? -errno : 0;
}

JNIEXPORT jint JNICALL Java_io_pacelink_transport_port_NativeUdp_setRealtimePriority(
    JNIEnv *env, jclass klass, jint priority)
{
    /*
     * sched_setscheduler(2) with pid 0 changes the calling thread only. SCHED_RESET_ON_FORK: threads it starts run
     * SCHED_OTHER again (sched(7)). Needs CAP_SYS_NICE or an RLIMIT_RTPRIO of at least the priority.
     */
    struct sched_param param;
    memset(&param, 0, sizeof(param));
    param.sched_priority = priority;
    return sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &param) < 0 ? -errno : 0;
}

JNIEXPORT jstring JNICALL Java_io_pacelink_transport_port_NativeUdp_errorText(
    JNIEnv *env, jclass klass, jint error)
{
    char text[256];
    const char *message = strerror_r(error, text, sizeof(text));
    return (*env)->NewStringUTF(env, message);
}
