/**
 * Small programs that show how to embed Pacelink with the public API only, each the pattern to copy: an echo
 * (request/response) service and its client, and a bulk sender and receiver that move a stream of bytes and prove it
 * arrived. Each runs as a process of its own ({@code java -cp ... io.pacelink.examples.EchoServer}); the waits with
 * timeouts keep them simple without spinning a core, and every one exits non-zero when something it sent was not
 * delivered.
 */
package io.pacelink.examples;
