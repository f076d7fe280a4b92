package io.paynotify.simulator.gateway;

import io.paynotify.simulator.sign.BeijingTime;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One gateway's daily bills: which lines a provider's bill of a day holds, the scripts that add to them
 * ({@link BillScript}), and the short-lived download links handed out. Thread-safe.
 *
 * <p>A bill holds the trades the gateway knows for that merchant: every scripted trade in a paid state
 * ({@link TradeState#PAID}, {@link TradeState#FINISHED}, {@link TradeState#REFUND}) whose payment time falls on that
 * Beijing day and whose order was asked about (an accepted query) through that API by that merchant — the gateway has
 * no other way to know whose trade it is (its scripts are provider-neutral) — plus the script's extras.
 */
final class Bills {

    /** A payment or refund line, provider-neutral. */
    record Entry(
            boolean refund,
            LocalDateTime time,
            String outTradeNo,
            String transactionId,
            long amountFen,
            String outRefundNo,
            String subMerchant) {}

    record Key(Api api, LocalDate day) {}

    /** A file handed out by a link, until {@code expiresAt}; {@code account} is who may fetch it. */
    record Download(byte[] bytes, String account, Instant expiresAt) {}

    private final Trades trades;
    private final Map<Key, BillScript> scripts = new ConcurrentHashMap<>();
    private final Map<String, Download> downloads = new ConcurrentHashMap<>();
    private final Map<Api, Long> requests = new ConcurrentHashMap<>();

    Bills(Trades trades) {
        this.trades = trades;
    }

    void script(Api api, LocalDate day, BillScript script) {
        scripts.put(new Key(api, day), script);
    }

    BillScript scriptOf(Api api, LocalDate day) {
        return scripts.getOrDefault(new Key(api, day), BillScript.ready());
    }

    Optional<BillScript> scripted(Api api, LocalDate day) {
        return Optional.ofNullable(scripts.get(new Key(api, day)));
    }

    void reset() {
        scripts.clear();
        downloads.clear();
        requests.clear();
    }

    void counted(Api api) {
        requests.merge(api, 1L, Long::sum);
    }

    long requests(Api api) {
        return requests.getOrDefault(api, 0L);
    }

    /** Hands out a link's token for these bytes, valid for {@code ttl}. */
    String offer(byte[] bytes, String account, Duration ttl) {
        downloads.values().removeIf(d -> d.expiresAt().isBefore(Instant.now()));
        String token = Nonces.alphanumeric(43);
        downloads.put(token, new Download(bytes, account, Instant.now().plus(ttl)));
        return token;
    }

    /** The file behind a token while it is valid. */
    Optional<Download> download(String token) {
        Download d = token == null ? null : downloads.get(token);
        if (d == null || d.expiresAt().isBefore(Instant.now())) {
            return Optional.empty();
        }
        return Optional.of(d);
    }

    /**
     * The lines of the bill of {@code day} for the merchant that {@code account} names in that API's requests
     * ({@code mch_id}, v3 {@code mchid} or {@code sp_mchid}, Alipay {@code app_id}), ordered by time.
     */
    List<Entry> lines(Api api, String account, LocalDate day) {
        BillScript script = scriptOf(api, day);
        Map<String, String> known = new LinkedHashMap<>(); // out_trade_no → sub-merchant (or null)
        for (RecordedRequest r : trades.requests()) {
            if (r.api() == api && r.accepted() && r.outTradeNo() != null && account.equals(accountOf(api, r))) {
                known.putIfAbsent(r.outTradeNo(), subMerchantOf(r));
            }
        }
        List<Entry> entries = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        known.forEach((no, sub) -> trades.scripted(no).ifPresent(t -> {
            LocalDateTime at = LocalDateTime.ofInstant(t.paidAt(), BeijingTime.OFFSET);
            if (t.state().paid() && at.toLocalDate().equals(day) && seen.add(no)) {
                long amount = script.amounts().getOrDefault(no, t.amountFen());
                entries.add(new Entry(false, at.withNano(0), no, t.transactionId(), amount, null, sub));
            }
        }));
        int i = 0;
        for (BillScript.Line l : script.extraPayments()) {
            entries.add(new Entry(
                    false,
                    day.atTime(12, 0).plusSeconds(i++),
                    l.outTradeNo(),
                    l.transactionId() != null ? l.transactionId() : id("4200", day, l.outTradeNo()),
                    l.amountFen(),
                    null,
                    null));
        }
        for (BillScript.Line l : script.refunds()) {
            String transactionId = l.transactionId();
            if (transactionId == null) {
                transactionId = trades.scripted(l.outTradeNo())
                        .map(ScriptedTrade::transactionId)
                        .orElse(id("4200", day, l.outTradeNo()));
            }
            entries.add(new Entry(
                    true,
                    day.atTime(18, 0).plusSeconds(i++),
                    l.outTradeNo(),
                    transactionId,
                    l.amountFen(),
                    l.outRefundNo(),
                    known.get(l.outTradeNo())));
        }
        entries.sort(Comparator.comparing(Entry::time));
        return entries;
    }

    private static String accountOf(Api api, RecordedRequest r) {
        return switch (api) {
            case WECHATPAY_V2 -> r.params().get("mch_id");
            case WECHATPAY_V3 -> r.params().getOrDefault("mchid", r.params().get("sp_mchid"));
            case ALIPAY -> r.params().get("app_id");
        };
    }

    private static String subMerchantOf(RecordedRequest r) {
        String sub = r.params().getOrDefault("sub_mch_id", r.params().get("sub_mchid"));
        return sub == null || sub.isBlank() ? null : sub;
    }

    /** A 28-digit id derived from the order number, the same on every fetch of the day's bill. */
    static String id(String prefix, LocalDate day, String seed) {
        StringBuilder id = new StringBuilder(prefix).append(day.format(java.time.format.DateTimeFormatter.BASIC_ISO_DATE));
        byte[] hash;
        try {
            hash = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        for (int i = 0; id.length() < 28; i++) {
            id.append((hash[i] & 0xFF) % 10);
        }
        return id.toString();
    }
}
