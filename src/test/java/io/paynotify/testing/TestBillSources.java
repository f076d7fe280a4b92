package io.paynotify.testing;

import io.paynotify.config.Channel;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.BillRequest;
import io.paynotify.core.statement.BillSink;
import io.paynotify.core.statement.StatementError;
import io.paynotify.provider.BillSource;
import io.paynotify.provider.WechatBillReader;
import io.paynotify.provider.alipay.AlipayBillReader;
import io.paynotify.statements.BillSources;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

/**
 * The bill sources of the Quarkus tests: reading is the real readers' ({@link WechatBillReader} for text or gzip,
 * {@link AlipayBillReader} for the zip), fetching is scripted per (channel, day) — a bill's bytes, no bill, not
 * ready, or an error — so that the statement service is tested without a provider. (The real sources, one per
 * provider package, are tested against stub servers on their own.)
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class TestBillSources extends BillSources {

    /** What the next fetch of a day gives: bytes (a bill), or one of the other outcomes. */
    public record Scripted(byte[] bill, BillSource.Fetch outcome) {}

    private static final Map<String, Deque<Scripted>> SCRIPTS = new ConcurrentHashMap<>();
    private static final Map<String, CountDownLatch> HOLDS = new ConcurrentHashMap<>();
    private static final Map<String, Integer> FETCHES = new ConcurrentHashMap<>();

    private final Map<Provider, BillSource> sources = Map.of(
            Provider.WECHATPAY_V2, new Source(Provider.WECHATPAY_V2),
            Provider.WECHATPAY_V3, new Source(Provider.WECHATPAY_V3),
            Provider.ALIPAY, new Source(Provider.ALIPAY));

    private static String key(String channel, LocalDate day) {
        return channel + "/" + day;
    }

    /** The next fetches of that day give these, in order (the last one repeats). */
    public static void script(String channel, LocalDate day, Scripted... next) {
        var q = new ArrayDeque<Scripted>();
        for (Scripted s : next) {
            q.add(s);
        }
        SCRIPTS.put(key(channel, day), q);
    }

    public static Scripted bill(byte[] bytes) {
        return new Scripted(bytes, null);
    }

    public static Scripted outcome(BillSource.Fetch f) {
        return new Scripted(null, f);
    }

    /** Fetches of that day wait until the returned latch is counted down. */
    public static CountDownLatch hold(String channel, LocalDate day) {
        var latch = new CountDownLatch(1);
        HOLDS.put(key(channel, day), latch);
        return latch;
    }

    /** How many fetches of that day reached the provider. */
    public static int fetches(String channel, LocalDate day) {
        return FETCHES.getOrDefault(key(channel, day), 0);
    }

    @Override
    public BillSource source(Provider provider) {
        return sources.get(provider);
    }

    private static final class Source implements BillSource {
        private final Provider provider;

        Source(Provider provider) {
            this.provider = provider;
        }

        @Override
        public Provider provider() {
            return provider;
        }

        @Override
        public Fetch fetch(Channel channel, LocalDate billDate, Path target, Duration downloadTimeout) {
            String k = key(channel.name(), billDate);
            FETCHES.merge(k, 1, Integer::sum);
            CountDownLatch hold = HOLDS.get(k);
            if (hold != null) {
                try {
                    hold.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            Deque<Scripted> q = SCRIPTS.get(k);
            Scripted s = q == null ? null : (q.size() > 1 ? q.poll() : q.peek());
            if (s == null) {
                return new Fetch.NotReady("nothing scripted");
            }
            if (s.outcome() != null) {
                return s.outcome();
            }
            try {
                Files.write(target, s.bill());
            } catch (IOException e) {
                return new Fetch.Failed(StatementError.HTTP, "write failed");
            }
            return new Fetch.Downloaded(s.bill().length, null);
        }

        @Override
        public void read(Channel channel, Path file, BillRequest request, String expectedSha1, BillSink sink)
                throws BillProblem {
            try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
                if (provider == Provider.ALIPAY) {
                    AlipayBillReader.read(raw, request, sink);
                    return;
                }
                raw.mark(2);
                int b1 = raw.read();
                int b2 = raw.read();
                raw.reset();
                InputStream text = b1 == 0x1f && b2 == 0x8b ? new GZIPInputStream(raw) : raw;
                WechatBillReader.read(text, request, sink);
            } catch (BillProblem e) {
                throw e;
            } catch (Exception e) {
                throw new BillProblem(StatementError.UNPARSEABLE, "not a bill");
            }
        }
    }
}
