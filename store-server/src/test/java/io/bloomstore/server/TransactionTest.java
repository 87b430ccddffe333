package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * MULTI, EXEC and DISCARD with Redis 7's replies and error texts, against the server in its own
 * process: what redis-py's {@code pipeline()} and Jedis's {@code multi()} send (RealClientsTest
 * runs those clients). Every test uses keys of its own on one server.
 */
class TransactionTest extends OneServerTests {
    @Test
    void execRunsTheQueuedCommandsInOrderAndAnswersTheirRepliesAsOneArray() throws IOException {
        try (Resp resp = new Resp(server.port)) {
            assertEquals("+OK", resp.send(Resp.command("MULTI")).reply());
            assertEquals("+QUEUED", resp.send(Resp.command("BF.ADD", "tx", "a")).reply());
            assertEquals("+QUEUED", resp.send(Resp.command("BF.EXISTS", "tx", "a")).reply());
            assertEquals("+QUEUED", resp.send(Resp.command("BF.MADD", "tx", "a", "b")).reply());
            assertEquals("+QUEUED", resp.send(Resp.command("ECHO", "last")).reply());
            assertFalse(Files.exists(dir.resolve("tx.bloom")), "queued, not run: the key has no file yet");
            assertEquals("*4 :1 :1 *2 :0 :1 $4 last", resp.send(Resp.command("EXEC")).reply());
            assertEquals(":1", resp.send(Resp.command("BF.EXISTS", "tx", "b")).reply(), "after EXEC, commands run at once");
        }
    }

    @Test
    void aCommandThatFailsWhenRunIsAnErrorInItsPlaceAndTheOthersStillRun() throws IOException {
        try (Resp resp = new Resp(server.port)) {
            resp.send(Resp.command("MULTI")).reply();
            assertEquals("+QUEUED", resp.send(Resp.command("BF.RESERVE", "txbad", "2", "100")).reply());
            assertEquals("+QUEUED", resp.send(Resp.command("BF.ADD", "txbad", "a")).reply());
            assertEquals("*2 -ERR (0 < error rate range < 1)  :1", resp.send(Resp.command("EXEC")).reply());
        }
    }

    @Test
    void aCommandRefusedWhileQueuedAbortsTheTransactionAsRedisDoes() throws IOException {
        try (Resp resp = new Resp(server.port)) {
            resp.send(Resp.command("MULTI")).reply();
            assertEquals("+QUEUED", resp.send(Resp.command("BF.ADD", "txabort", "a")).reply());
            assertEquals("-ERR unknown command 'NOPE', with args beginning with: 'x' ",
                    resp.send(Resp.command("NOPE", "x")).reply());
            assertEquals("-ERR wrong number of arguments for 'bf.add' command",
                    resp.send(Resp.command("BF.ADD", "txabort")).reply());
            assertEquals("-EXECABORT Transaction discarded because of previous errors.",
                    resp.send(Resp.command("EXEC")).reply());
            assertEquals(":0", resp.send(Resp.command("EXISTS", "txabort")).reply(), "nothing queued ran");
            assertEquals("-ERR EXEC without MULTI", resp.send(Resp.command("EXEC")).reply(), "the transaction ended");
        }
    }

    @Test
    void discardNestingAndWatchAnswerAsRedisDoes() throws IOException {
        try (Resp resp = new Resp(server.port)) {
            assertEquals("-ERR EXEC without MULTI", resp.send(Resp.command("EXEC")).reply());
            assertEquals("-ERR DISCARD without MULTI", resp.send(Resp.command("DISCARD")).reply());
            assertEquals("+OK", resp.send(Resp.command("UNWATCH")).reply());
            assertTrue(resp.send(Resp.command("WATCH", "k")).reply().startsWith("-ERR WATCH is not supported"),
                    "WATCH cannot keep its promise over shared files: refused, not ignored");
            resp.send(Resp.command("MULTI")).reply();
            assertEquals("-ERR MULTI calls can not be nested", resp.send(Resp.command("MULTI")).reply());
            assertEquals("-ERR WATCH inside MULTI is not allowed", resp.send(Resp.command("WATCH", "k")).reply());
            assertEquals("+QUEUED", resp.send(Resp.command("BF.ADD", "txdiscard", "a")).reply());
            assertEquals("+OK", resp.send(Resp.command("DISCARD")).reply());
            assertEquals(":0", resp.send(Resp.command("EXISTS", "txdiscard")).reply(), "a discarded command never ran");
            resp.send(Resp.command("MULTI")).reply();
            assertEquals("+QUEUED", resp.send(Resp.command("BF.ADD", "txreset", "a")).reply());
            assertEquals("+RESET", resp.send(Resp.command("RESET")).reply());
            assertEquals("-ERR EXEC without MULTI", resp.send(Resp.command("EXEC")).reply(), "RESET ends a transaction");
            assertEquals(":0", resp.send(Resp.command("EXISTS", "txreset")).reply());
            resp.send(Resp.command("MULTI")).reply();
            assertEquals("*0", resp.send(Resp.command("EXEC")).reply(), "an empty transaction");
        }
    }

    @Test
    void aTransactionLeftOpenDiesWithItsConnection() throws IOException {
        try (Resp resp = new Resp(server.port)) {
            resp.send(Resp.command("MULTI")).reply();
            assertEquals("+QUEUED", resp.send(Resp.command("BF.ADD", "txgone", "a")).reply());
        }
        try (Resp resp = new Resp(server.port)) {
            assertEquals("-ERR EXEC without MULTI", resp.send(Resp.command("EXEC")).reply());
            assertEquals(":0", resp.send(Resp.command("EXISTS", "txgone")).reply());
        }
    }

    @Test
    void theQueueIsBoundedByItsBytesAndPastTheBoundTheTransactionIsRefused() throws RespError {
        Transaction transaction = new Transaction(3 * (RequestDecoder.ARG_OVERHEAD + 10));
        transaction.begin();
        byte[][] command = {new byte[3], new byte[3], new byte[4]}; // 10 bytes, 3 words
        transaction.queue(command);
        RespError past = assertThrows(RespError.class, () -> transaction.queue(command));
        assertTrue(past.getMessage().startsWith("ERR the commands queued since MULTI hold more than"), past.getMessage());
        assertTrue(transaction.isOpen());
        assertEquals(Transaction.ABORTED, assertThrows(RespError.class, transaction::take).getMessage());
        assertFalse(transaction.isOpen());
    }
}
