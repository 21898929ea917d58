package io.pacelink.transport.agent;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The agent's register of threads waiting for their connect's answer: a thread whose connect timed out is forgotten
 * without a wake, and a waiter beyond the register's capacity is woken at once instead of registered. No agent, no
 * sockets: connections whose state the test sets.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConnectWaitersTest
{
    private static final InetSocketAddress SERVER = new InetSocketAddress("127.0.0.1", 9);

    @Test
    void aThreadWhoseConnectTimedOutIsForgottenWithoutAWake()
    {
        final ConnectWaiters waiters = new ConnectWaiters();
        final AtomicReference<ConnectionState> state = new AtomicReference<>(ConnectionState.CONNECTING);
        final Thread thread = new Thread(() -> { });
        final ConnectCommand command = new ConnectCommand(SERVER, null, thread);
        waiters.add(command, connection(state), thread);
        waiters.wakeAnswered();
        assertEquals(1, waiters.waiting(), "still waiting for the answer");

        // The waiter gives up before closing its connection, so the agent sees the close after it.
        command.abandonWait();
        state.set(ConnectionState.CLOSED);
        waiters.wakeAnswered();
        assertEquals(0, waiters.waiting());
        assertEquals(1, waiters.abandoned());
        assertEquals(0, waiters.woken(), "a thread that left is not woken");
        assertFalse(waiters.isAnyWaiting());
    }

    @Test
    void anAnsweredConnectStillWakesItsThread()
    {
        final ConnectWaiters waiters = new ConnectWaiters();
        final AtomicReference<ConnectionState> state = new AtomicReference<>(ConnectionState.CONNECTING);
        final Thread thread = Thread.currentThread();
        waiters.add(new ConnectCommand(SERVER, null, thread), connection(state), thread);
        state.set(ConnectionState.CONNECTED);
        waiters.wakeAnswered();
        assertEquals(1, waiters.woken());
        assertEquals(0, waiters.abandoned());
        assertEquals(0, waiters.waiting());
        LockSupport.park(); // the wake's permit: returns at once (the test's timeout would end a missing one)
    }

    @Test
    void aWaiterBeyondTheCapacityIsWokenAtOnceAndNotRegistered()
    {
        final ConnectWaiters waiters = new ConnectWaiters();
        final AtomicReference<ConnectionState> first = new AtomicReference<>(ConnectionState.CONNECTING);
        final AtomicReference<ConnectionState> others = new AtomicReference<>(ConnectionState.CONNECTING);
        final Thread idle = new Thread(() -> { });
        waiters.add(new ConnectCommand(SERVER, null, idle), connection(first), idle);
        for (int i = 1; i < ConnectWaiters.CAPACITY; i++)
        {
            waiters.add(new ConnectCommand(SERVER, null, idle), connection(others), idle);
        }
        assertEquals(ConnectWaiters.CAPACITY, waiters.waiting());

        final Thread self = Thread.currentThread();
        waiters.add(new ConnectCommand(SERVER, null, self), connection(others), self);
        assertEquals(ConnectWaiters.CAPACITY, waiters.waiting(), "the 1,025th is not registered");
        LockSupport.park(); // woken at once: returns (the test's timeout would end a missing wake)

        // An answer frees a place, which the next waiter takes.
        first.set(ConnectionState.CONNECTED);
        waiters.wakeAnswered();
        assertEquals(1, waiters.woken());
        assertEquals(ConnectWaiters.CAPACITY - 1, waiters.waiting());
        waiters.add(new ConnectCommand(SERVER, null, idle), connection(others), idle);
        assertEquals(ConnectWaiters.CAPACITY, waiters.waiting());
    }

    @Test
    void aConnectTheAgentCouldNotOpenWakesItsThreadAtOnce()
    {
        final ConnectWaiters waiters = new ConnectWaiters();
        final Thread self = Thread.currentThread();
        waiters.add(new ConnectCommand(SERVER, null, self), null, self);
        assertEquals(0, waiters.waiting());
        LockSupport.park(); // woken at once
    }

    private static Connection connection(final AtomicReference<ConnectionState> state)
    {
        return (Connection)Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
            (proxy, method, args) ->
            {
                if ("state".equals(method.getName()))
                {
                    return state.get();
                }
                throw new UnsupportedOperationException(method.getName());
            });
    }
}
