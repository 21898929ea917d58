/**
 * Connection memory committed as it is needed (docs/security.md, "Memory"): the endpoint-wide budget every stream
 * buffer segment and sent-packet record is charged to, and the pool of receive-buffer segments.
 */
package io.pacelink.transport.memory;
