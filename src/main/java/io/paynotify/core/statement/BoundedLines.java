package io.paynotify.core.statement;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;

/**
 * The lines of a decompressed bill, read one at a time in bounded memory: split on {@code \n}, a trailing {@code \r}
 * stripped, each decoded strictly in the bill's charset (malformed bytes are {@code UNPARSEABLE}). At most
 * {@link #MAX_BYTES} bytes and {@link #MAX_LINES} lines in all ({@code TOO_LARGE}), {@link #MAX_LINE} bytes a line
 * ({@code UNPARSEABLE}).
 */
public final class BoundedLines {

    /** 1 GiB decompressed. */
    public static final long MAX_BYTES = 1L << 30;

    /** 5,000,000 lines. */
    public static final long MAX_LINES = 5_000_000;

    /** No bill line is anywhere near 64 KiB. */
    public static final int MAX_LINE = 64 * 1024;

    private final InputStream in;
    private final CharsetDecoder decoder;
    private final byte[] buffer = new byte[64 * 1024];
    private int pos;
    private int end;
    private byte[] line = new byte[1024];
    private long bytes;
    private long lines;
    private boolean eof;

    public BoundedLines(InputStream in, Charset charset) {
        this.in = in;
        this.decoder = charset.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
    }

    /** How many lines were returned so far (1 for the first). */
    public long lineNumber() {
        return lines;
    }

    /**
     * The next line without its terminator, or null at the end.
     *
     * @throws BillProblem {@code TOO_LARGE} or {@code UNPARSEABLE}
     */
    public String next() throws IOException, BillProblem {
        if (eof) {
            return null;
        }
        int len = 0;
        boolean any = false;
        while (true) {
            if (pos == end) {
                int n = in.read(buffer);
                if (n < 0) {
                    eof = true;
                    if (!any) {
                        return null;
                    }
                    break;
                }
                pos = 0;
                end = n;
                bytes += n;
                if (bytes > MAX_BYTES) {
                    throw new BillProblem(StatementError.TOO_LARGE, "more than 1 GiB decompressed");
                }
                continue;
            }
            any = true;
            byte b = buffer[pos++];
            if (b == '\n') {
                break;
            }
            if (len == MAX_LINE) {
                throw new BillProblem(StatementError.UNPARSEABLE, "line " + (lines + 1) + " is longer than 64 KiB");
            }
            if (len == line.length) {
                line = java.util.Arrays.copyOf(line, Math.min(MAX_LINE, line.length * 2));
            }
            line[len++] = b;
        }
        if (len > 0 && line[len - 1] == '\r') {
            len--;
        }
        lines++;
        if (lines > MAX_LINES) {
            throw new BillProblem(StatementError.TOO_LARGE, "more than 5,000,000 lines");
        }
        try {
            CharBuffer chars = decoder.reset().decode(ByteBuffer.wrap(line, 0, len));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new BillProblem(StatementError.UNPARSEABLE, "line " + lines + " is not in the bill's charset");
        }
    }
}
