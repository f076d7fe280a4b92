package io.paynotify.merchant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.paynotify.config.Channel;
import io.paynotify.core.notify.Provider;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The strict create body: each broken rule is a 400 that names its field. */
@Tag("unit")
class CreateOrderRequestTest {

    static final Map<String, Channel> CHANNELS = Map.of(
            "wx-main", new Channel("wx-main", Provider.WECHATPAY_V2, 32, Set::of),
            "ali-app", new Channel("ali-app", Provider.ALIPAY, 64, Set::of));

    static CreateOrderRequest parse(String json) throws InvalidRequest {
        return CreateOrderRequest.parse(
                json.getBytes(StandardCharsets.UTF_8), name -> Optional.ofNullable(CHANNELS.get(name)));
    }

    static String field(String json) {
        return assertThrows(InvalidRequest.class, () -> parse(json), json).field;
    }

    @Test
    void minimalBodyDefaultsToCny() throws InvalidRequest {
        CreateOrderRequest r = parse("{\"channel\":\"wx-main\",\"outTradeNo\":\"A-1|*_\",\"amount\":1}");
        assertEquals("wx-main", r.channel().name());
        assertEquals("A-1|*_", r.outTradeNo());
        assertEquals(1L, r.amount());
        assertEquals("CNY", r.currency());
        assertNull(r.description());
    }

    @Test
    void fullBody() throws InvalidRequest {
        CreateOrderRequest r = parse("{\"description\":\"测试 item\",\"currency\":\"CNY\",\"amount\":10000000000,"
                + "\"outTradeNo\":\"" + "a".repeat(64) + "\",\"channel\":\"ali-app\"}");
        assertEquals(10_000_000_000L, r.amount());
        assertEquals("测试 item", r.description());
    }

    @Test
    void amountMustBeAPositiveBoundedJsonInteger() {
        for (String amount : new String[] {
            "0",
            "-1",
            "10000000001",
            "1.0",
            "1e2",
            "1E2",
            "\"100\"",
            "true",
            "99999999999999999999999",
            "[1]",
            "{}",
            "null"
        }) {
            assertEquals(
                    "amount",
                    field("{\"channel\":\"wx-main\",\"outTradeNo\":\"A1\",\"amount\":" + amount + "}"),
                    amount);
        }
    }

    @Test
    void outTradeNoPatternAndWechatLimit() {
        for (String no : new String[] {"", "A 1", "A+1", "A/1", "Ä1", "a".repeat(33), "A1\\u0000"}) {
            assertEquals(
                    "outTradeNo", field("{\"channel\":\"wx-main\",\"outTradeNo\":\"" + no + "\",\"amount\":1}"), no);
        }
        assertEquals(
                "outTradeNo",
                field("{\"channel\":\"ali-app\",\"outTradeNo\":\"" + "a".repeat(65) + "\",\"amount\":1}"));
        assertEquals("outTradeNo", field("{\"channel\":\"ali-app\",\"outTradeNo\":12,\"amount\":1}"));
    }

    @Test
    void currencyIsCnyOnly() {
        assertEquals(
                "currency", field("{\"channel\":\"wx-main\",\"outTradeNo\":\"A1\",\"amount\":1,\"currency\":\"USD\"}"));
        assertEquals(
                "currency", field("{\"channel\":\"wx-main\",\"outTradeNo\":\"A1\",\"amount\":1,\"currency\":\"cny\"}"));
        assertEquals("currency", field("{\"channel\":\"wx-main\",\"outTradeNo\":\"A1\",\"amount\":1,\"currency\":1}"));
    }

    @Test
    void channelMustBeKnown() {
        assertEquals("channel", field("{\"channel\":\"nope\",\"outTradeNo\":\"A1\",\"amount\":1}"));
        assertEquals("channel", field("{\"outTradeNo\":\"A1\",\"amount\":1}"));
        assertEquals("channel", field("{\"channel\":\"WX-MAIN\",\"outTradeNo\":\"A1\",\"amount\":1}"));
    }

    @Test
    void descriptionIsBoundedText() {
        assertEquals(
                "description",
                field("{\"channel\":\"wx-main\",\"outTradeNo\":\"A1\",\"amount\":1," + "\"description\":\""
                        + "x".repeat(257) + "\"}"));
        assertEquals(
                "description",
                field("{\"channel\":\"wx-main\",\"outTradeNo\":\"A1\",\"amount\":1,"
                        + "\"description\":\"a\\u0000b\"}"));
        assertEquals(
                "description",
                field("{\"channel\":\"wx-main\",\"outTradeNo\":\"A1\",\"amount\":1," + "\"description\":\"\\ud800\"}"));
    }

    @Test
    void strictDocument() {
        assertEquals("extra", field("{\"channel\":\"wx-main\",\"outTradeNo\":\"A1\",\"amount\":1,\"extra\":1}"));
        assertEquals("amount", field("{\"channel\":\"wx-main\",\"outTradeNo\":\"A1\",\"amount\":1,\"amount\":2}"));
        assertEquals("body", field(""));
        assertEquals("body", field("[]"));
        assertEquals("body", field("{\"channel\":\"wx-main\""));
        assertEquals("body", field("{\"channel\":\"wx-main\",\"outTradeNo\":\"A1\",\"amount\":1} {}"));
        assertEquals("body", field("{'channel':'wx-main'}"));
        assertEquals(
                "body",
                assertThrows(
                                InvalidRequest.class,
                                () -> CreateOrderRequest.parse(
                                        new byte[] {'{', '"', (byte) 0xC0, (byte) 0xAF, '"', ':', '1', '}'},
                                        n -> Optional.empty()))
                        .field);
    }
}
