package io.paynotify.provider;

import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.BillSink;
import io.paynotify.core.statement.BoundedLines;
import io.paynotify.core.statement.StatementError;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * What the providers' {@link BillSource#read} implementations share: opening a WeChat bill file as text (gzip told
 * from plain text by its first two bytes, {@code 1F 8B}), the SHA-1 of the decompressed text, and one way to turn
 * what a reader throws into {@link BillSource#read}'s promise (a {@link BillProblem}, or an unchecked exception).
 */
public final class BillFiles {

    private static final int GZIP_MAGIC_1 = 0x1F;
    private static final int GZIP_MAGIC_2 = 0x8B;

    private BillFiles() {}

    /** A checked exception thrown by a caller's {@link BillSink}, passed on unchecked by {@link BillSource#read}. */
    public static final class SinkFailed extends RuntimeException {
        SinkFailed(Exception cause) {
            super("the bill sink failed", cause);
        }
    }

    /** A reader's work on an open stream. */
    @FunctionalInterface
    public interface Reading {
        void read(InputStream in, BillSink sink) throws Exception;
    }

    /** True when the file starts with gzip's magic bytes. */
    public static boolean gzipped(InputStream buffered) throws IOException {
        buffered.mark(2);
        int a = buffered.read();
        int b = buffered.read();
        buffered.reset();
        return a == GZIP_MAGIC_1 && b == GZIP_MAGIC_2;
    }

    /**
     * Reads a WeChat bill file, gzip or plain text, and, where {@code expectedSha1} is set (v3), checks that the
     * SHA-1 of the whole decompressed text equals it (hex, compared case-insensitively) — computed as the lines are
     * read, and over the rest of the file too when the reader stopped early, so that a file whose hash is wrong is
     * always {@code HASH}, whatever else is wrong with it. The caller discards the lines on any {@link BillProblem}.
     */
    public static void readWechat(Path file, String expectedSha1, BillSink sink, Reading reader) throws BillProblem {
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), 64 * 1024)) {
            InputStream text = gzipped(raw) ? new GZIPInputStream(raw, 64 * 1024) : raw;
            if (expectedSha1 == null) {
                run(text, sink, reader);
                return;
            }
            MessageDigest sha1 = sha1();
            var hashed = new DigestInputStream(text, sha1);
            BillProblem problem = null;
            try {
                run(hashed, sink, reader);
            } catch (BillProblem p) {
                problem = p;
            }
            try {
                drain(hashed);
            } catch (BillProblem p) {
                throw problem != null ? problem : p;
            } catch (IOException e) {
                throw problem != null ? problem : problem(e);
            }
            if (!HexFormat.of().formatHex(sha1.digest()).equalsIgnoreCase(expectedSha1.strip())) {
                throw new BillProblem(StatementError.HASH, "the SHA-1 of the bill differs from hash_value");
            }
            if (problem != null) {
                throw problem;
            }
        } catch (IOException e) {
            throw problem(e);
        }
    }

    /**
     * Runs a reader over a stream, turning what it throws into {@link BillSource#read}'s promise: its
     * {@link BillProblem}s as they are, a broken gzip or zip as {@code UNPARSEABLE} (cut short: {@code TRUNCATED}),
     * the sink's checked exceptions as {@link SinkFailed}.
     */
    public static void run(InputStream in, BillSink sink, Reading reader) throws BillProblem {
        BillSink guarded = line -> {
            try {
                sink.line(line);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new SinkFailed(e);
            }
        };
        try {
            reader.read(in, guarded);
        } catch (BillProblem | RuntimeException e) {
            throw e;
        } catch (IOException e) {
            throw problem(e);
        } catch (Exception e) {
            // the readers throw nothing else than the sink's, which the guard made unchecked
            throw new IllegalStateException("unexpected exception from a bill reader", e);
        }
    }

    /** A reader's I/O failure: the bill's own (a broken or cut gzip or zip) or the local file's. */
    static BillProblem problem(IOException e) {
        if (e instanceof EOFException) {
            return new BillProblem(StatementError.TRUNCATED, "the compressed file ends early");
        }
        if (e instanceof ZipException) {
            return new BillProblem(StatementError.UNPARSEABLE, "the compressed file is broken");
        }
        throw new UncheckedIOException("reading the bill file failed", e);
    }

    /** Reads the rest of the stream, at most 1 GiB decompressed in all. */
    private static void drain(DigestInputStream in) throws IOException, BillProblem {
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        int n;
        while ((n = in.read(buffer)) >= 0) {
            total += n;
            if (total > BoundedLines.MAX_BYTES) {
                throw new BillProblem(StatementError.TOO_LARGE, "more than 1 GiB decompressed");
            }
        }
    }

    private static MessageDigest sha1() {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has SHA-1", e);
        }
    }
}
