/*
 * The system calls of a busy-spinning UDP ping-pong on loopback, priced in C (perf/FINDINGS.md, branch lat16): both
 * ends make the same calls, the client connected (as Pacelink's client port is restricted to its server), the echo
 * server not. Within one pair of processes the client cycles through the call flavours below in blocks (its first
 * 200 round trips of each block not counted; the server follows the flavour named in each request), so every
 * flavour sees the same placement of the two spinning processes — on a two-core VM, raw UDP's own p50 moves between
 * runs by more than most of the differences measured here.
 *
 *   gcc -O2 -o /tmp/pingpong-calls perf/c/pingpong-calls.c
 *   /tmp/pingpong-calls server 47201 & /tmp/pingpong-calls client 47201 4000 6 [flavour...]; kill %1
 *   /tmp/pingpong-calls empty 47202 500000     # one thread: the cost of an empty receive of each kind, a clock read
 *
 * Two spinning threads: run it only where nothing else is measured (a quiet window). BLOCKING=1 in the environment
 * makes both sockets blocking (a check of the program without spinning).
 * Flavours: receive by recvfrom(2), recvmsg(2) with a control buffer and some of SO_TIMESTAMPNS (TS), IP_RECVTOS
 * (TOS), UDP_GRO (GRO) on, recvmmsg(2) of one, or a zero-length MSG_PEEK probe before recvmsg; send by sendto(2),
 * sendmsg(2) or sendmmsg(2) of one, the server's with an IP_TOS control message ("srv cmsg") or with the TOS set on
 * the socket ("sticky"). Flavours 12-15 (branch lat23) price the echo server's own send: Pacelink's calls as merged
 * (the client's lone datagram by sendto, the server's by sendmmsg with an IP_TOS control message), the server's TOS
 * on its socket so that it sends by sendto too, and the server's socket connected to the client for the block
 * ("srv connected": udp_sendmsg then takes the route cached at connect(2) instead of looking one up per datagram),
 * with Pacelink's receive and with raw UDP's calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/socket.h>
#ifndef UDP_GRO
#define UDP_GRO 104
#endif
#ifndef SOL_UDP
#define SOL_UDP 17
#endif
enum { R_RECVFROM = 0, R_RECVMSG = 1, R_PEEK = 2, R_RECVMMSG = 3 };
enum { S_SENDTO = 0, S_SENDMSG = 1, S_SENDMMSG = 2 };
enum { O_TS = 1, O_TOS = 2, O_GRO = 4 };
/* srv_send: the server's send when it differs from the client's (-1: the same); srv_connect: the echo server connects
 * its socket to the client for the block (connect(2)) and answers without a name, on the kernel's connected path. */
struct variant { const char *name; int recv; int opts; int send; int cmsg_tos; int srv_send; int srv_connect; };
static const struct variant V[] = {
  { "raw recvfrom/sendto", R_RECVFROM, 0, S_SENDTO, 0 },
  { "pacelink now: recvmsg TS+TOS+GRO, sendmmsg, srv cmsg TOS", R_RECVMSG, 7, S_SENDMMSG, 1 },
  { "recvmmsg(1) TS+TOS+GRO, sendmmsg, srv cmsg", R_RECVMMSG, 7, S_SENDMMSG, 1 },
  { "recvmsg all, sendmsg, srv cmsg", R_RECVMSG, 7, S_SENDMSG, 1 },
  { "recvmsg all, sendmmsg, sticky", R_RECVMSG, 7, S_SENDMMSG, 0 },
  { "recvmsg all, sendmsg, sticky", R_RECVMSG, 7, S_SENDMSG, 0 },
  { "recvmsg none, sendmsg, sticky", R_RECVMSG, 0, S_SENDMSG, 0 },
  { "recvmsg TOS, sendmsg, sticky", R_RECVMSG, O_TOS, S_SENDMSG, 0 },
  { "recvmsg TOS+TS, sendmsg, sticky", R_RECVMSG, O_TOS | O_TS, S_SENDMSG, 0 },
  { "recvmsg TOS+GRO, sendmsg, sticky", R_RECVMSG, O_TOS | O_GRO, S_SENDMSG, 0 },
  { "peek+recvmsg all, sendmsg, sticky", R_PEEK, 7, S_SENDMSG, 0 },
  { "recvfrom, sendmsg sticky", R_RECVFROM, 0, S_SENDMSG, 0 },
  { "pacelink main: recvmsg all; client sendto, srv sendmmsg + cmsg TOS", R_RECVMSG, 7, S_SENDTO, 1, S_SENDMMSG, 0 },
  { "recvmsg all, sendto, srv TOS sticky (unconnected)", R_RECVMSG, 7, S_SENDTO, 0, -1, 0 },
  { "recvmsg all, sendto, srv TOS sticky, srv connected", R_RECVMSG, 7, S_SENDTO, 0, -1, 1 },
  { "raw recvfrom/sendto, srv connected", R_RECVFROM, 0, S_SENDTO, 0, -1, 1 },
};
#define NV ((int)(sizeof(V) / sizeof(V[0])))
static int64_t now_ns(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000LL + t.tv_nsec; }
static int cur_opts = -1;
static void apply_opts(int fd, int opts)
{
  if (opts == cur_opts) return;
  int on;
  on = !!(opts & O_TS); setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
  on = !!(opts & O_TOS); setsockopt(fd, IPPROTO_IP, IP_RECVTOS, &on, sizeof on);
  on = !!(opts & O_GRO); setsockopt(fd, SOL_UDP, UDP_GRO, &on, sizeof on);
  cur_opts = opts;
}
static uint8_t rbuf[65536];
static struct sockaddr_in rname;
static uint64_t ctrl[16];
static struct msghdr rhdr;
static struct iovec riov;
static struct mmsghdr rmm;
static volatile int64_t sink;
static int dw = 0x40;
/* returns length or -1 */
static ssize_t do_recv(int fd, int kind)
{
  ssize_t n;
  socklen_t nl = sizeof rname;
  if (kind == R_RECVFROM) return recvfrom(fd, rbuf, sizeof rbuf, dw, (struct sockaddr *)&rname, &nl);
  if (kind == R_PEEK)
  {
    if (recv(fd, NULL, 0, dw | MSG_PEEK | MSG_TRUNC) < 0) return -1;
  }
  riov.iov_base = rbuf; riov.iov_len = sizeof rbuf;
  rhdr.msg_iov = &riov; rhdr.msg_iovlen = 1;
  rhdr.msg_name = &rname; rhdr.msg_namelen = sizeof rname;
  rhdr.msg_control = ctrl; rhdr.msg_controllen = sizeof ctrl; rhdr.msg_flags = 0;
  if (kind == R_RECVMMSG)
  {
    rmm.msg_hdr = rhdr;
    int r = recvmmsg(fd, &rmm, 1, dw, NULL);
    if (r <= 0) return -1;
    rhdr = rmm.msg_hdr; n = rmm.msg_len;
  }
  else
  {
    n = recvmsg(fd, &rhdr, dw);
    if (n < 0) return -1;
  }
  struct timespec ret; int has = 0;
  for (struct cmsghdr *c = CMSG_FIRSTHDR(&rhdr); c; c = CMSG_NXTHDR(&rhdr, c))
  {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS)
    {
      struct timespec st; memcpy(&st, CMSG_DATA(c), sizeof st);
      if (!has) { clock_gettime(CLOCK_REALTIME, &ret); has = 1; }
      sink += (ret.tv_sec - st.tv_sec) * 1000000000LL + ret.tv_nsec - st.tv_nsec;
    }
    else if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS) sink += *(uint8_t *)CMSG_DATA(c);
    else if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) { int s; memcpy(&s, CMSG_DATA(c), 4); sink += s; }
  }
  return n;
}
static void do_send(int fd, int kind, int cmsg_tos, const void *buf, size_t len, const struct sockaddr_in *to)
{
  if (kind == S_SENDTO) { sendto(fd, buf, len, dw, (const struct sockaddr *)to, to ? sizeof *to : 0); return; }
  struct iovec iov = { (void *)buf, len };
  struct msghdr h; memset(&h, 0, sizeof h);
  h.msg_iov = &iov; h.msg_iovlen = 1;
  if (to) { h.msg_name = (void *)to; h.msg_namelen = sizeof *to; }
  uint64_t c[4];
  if (cmsg_tos)
  {
    struct cmsghdr *ch = (struct cmsghdr *)c; ch->cmsg_level = IPPROTO_IP; ch->cmsg_type = IP_TOS; ch->cmsg_len = CMSG_LEN(sizeof(int));
    int tos = 2; memcpy(CMSG_DATA(ch), &tos, sizeof tos);
    h.msg_control = c; h.msg_controllen = CMSG_SPACE(sizeof(int));
  }
  if (kind == S_SENDMSG) sendmsg(fd, &h, dw);
  else { struct mmsghdr m; memset(&m, 0, sizeof m); m.msg_hdr = h; sendmmsg(fd, &m, 1, dw); }
}
/* The variants before the server's own send and connect fields were added (indexes 0-11) leave them zero: the
 * server sends as the client does. */
static int srv_send_of(int v) { return v >= 12 && V[v].srv_send >= 0 ? V[v].srv_send : V[v].send; }
static int cmp64(const void *a, const void *b) { int64_t x = *(const int64_t *)a, y = *(const int64_t *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv)
{
  if (argc < 3) { fprintf(stderr, "pp server PORT | pp client PORT BLOCK REPS [variants]\n"); return 2; }
  int port = atoi(argv[2]);
  if (getenv("BLOCKING")) dw = 0;
  int fd = socket(AF_INET, SOCK_DGRAM | (dw ? SOCK_NONBLOCK : 0), 0);
  int tos = 2; setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof tos);
  struct sockaddr_in a; memset(&a, 0, sizeof a); a.sin_family = AF_INET; a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); a.sin_port = htons(port);
  uint8_t msg[32]; memset(msg, 7, sizeof msg);
  if (!strcmp(argv[1], "empty"))
  {
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0) { perror("bind"); return 1; }
    int iters = atoi(argv[3]);
    static const struct { const char *n; int recv; int opts; } E[] = {
      { "recvfrom", R_RECVFROM, 0 }, { "recvmsg none", R_RECVMSG, 0 }, { "recvmsg all", R_RECVMSG, 7 },
      { "recvmmsg(1) all", R_RECVMMSG, 7 }, { "peek", R_PEEK, 7 } };
    for (int round = 0; round < 2; round++)
      for (int e = 0; e < 5; e++)
      {
        apply_opts(fd, E[e].opts);
        int64_t t0 = now_ns();
        for (int i = 0; i < iters; i++) do_recv(fd, E[e].recv);
        printf("empty %-16s %6.1f ns/call\n", E[e].n, (now_ns() - t0) / (double)iters);
      }
    int64_t t0 = now_ns(); struct timespec t;
    for (int i = 0; i < iters; i++) { clock_gettime(CLOCK_MONOTONIC, &t); sink += t.tv_nsec; }
    printf("clock_gettime MONOTONIC %6.1f ns\n", (now_ns() - t0) / (double)iters);
    t0 = now_ns();
    for (int i = 0; i < iters; i++) { clock_gettime(CLOCK_REALTIME, &t); sink += t.tv_nsec; }
    printf("clock_gettime REALTIME %6.1f ns\n", (now_ns() - t0) / (double)iters);
    return 0;
  }
  if (!strcmp(argv[1], "server"))
  {
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0) { perror("bind"); return 1; }
    int v = 0, connected = 0; apply_opts(fd, V[0].opts);
    int64_t idle_start = now_ns();
    for (;;)
    {
      ssize_t n = do_recv(fd, V[v].recv);
      if (n < 0) { if ((now_ns() - idle_start) > 5000000000LL) return 0; continue; }
      idle_start = now_ns();
      uint32_t nv; memcpy(&nv, rbuf, 4);
      if (nv == 0xffffffffu) return 0;
      if ((int)nv != v && nv < (uint32_t)NV)
      {
        v = nv; apply_opts(fd, V[v].opts);
        if (V[v].srv_connect != connected)
        {
          struct sockaddr unspec; memset(&unspec, 0, sizeof unspec); unspec.sa_family = AF_UNSPEC;
          if (V[v].srv_connect ? connect(fd, (struct sockaddr *)&rname, sizeof rname) : connect(fd, &unspec, sizeof unspec))
            perror("server connect");
          connected = V[v].srv_connect;
        }
      }
      struct sockaddr_in to = rname;
      do_send(fd, srv_send_of(v), V[v].cmsg_tos, rbuf, n, connected ? NULL : &to);
    }
  }
  int block = atoi(argv[3]), reps = atoi(argv[4]);
  int list[64], nl = 0;
  for (int i = 5; i < argc; i++) list[nl++] = atoi(argv[i]);
  if (!nl) for (int i = 0; i < NV; i++) list[nl++] = i;
  if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) { perror("connect"); return 1; }
  const int discard = 200;
  int per = (block - discard) * reps;
  int64_t *s[64]; int ns[64];
  for (int i = 0; i < nl; i++) { s[i] = malloc(sizeof(int64_t) * per); ns[i] = 0; }
  for (int r = 0; r < reps; r++)
    for (int k = 0; k < nl; k++)
    {
      const struct variant *x = &V[list[k]];
      apply_opts(fd, x->opts);
      for (int i = 0; i < block; i++)
      {
        uint32_t vv = list[k]; memcpy(msg, &vv, 4); memcpy(msg + 4, &i, 4);
        int64_t t0 = now_ns();
        do_send(fd, x->send, 0, msg, sizeof msg, NULL);
        int64_t dl = t0 + 1000000000LL;
        for (;;)
        {
          ssize_t n = do_recv(fd, x->recv);
          if (n >= 8 && !memcmp(rbuf + 4, &i, 4)) break;
          if (n < 0 && now_ns() > dl) { fprintf(stderr, "timeout\n"); goto next; }
        }
        if (i >= discard) s[k][ns[k]++] = now_ns() - t0;
        next:;
      }
    }
  uint32_t stop = 0xffffffffu; memcpy(msg, &stop, 4); send(fd, msg, sizeof msg, 0);
  for (int k = 0; k < nl; k++)
  {
    qsort(s[k], ns[k], sizeof(int64_t), cmp64);
    printf("%2d p50 %6.2f p90 %6.2f p99 %6.2f n %d  %s\n", list[k], s[k][ns[k] / 2] / 1000.0, s[k][ns[k] * 9 / 10] / 1000.0,
      s[k][ns[k] * 99 / 100] / 1000.0, ns[k], V[list[k]].name);
  }
  return 0;
}
