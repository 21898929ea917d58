/**
 * Admission of new connections (docs/security.md): stateless address validation with Retry tokens and the per-source
 * handshake rate limit. Everything here runs on the agent thread, allocation free on the path a flood of hellos takes.
 */
package io.pacelink.transport.admission;
