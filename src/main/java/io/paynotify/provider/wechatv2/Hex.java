package io.paynotify.provider.wechatv2;

import java.util.HexFormat;

/** Hex decoding that accepts either case (ASCII hex digits only) and returns null on anything else. */
final class Hex {

    private Hex() {}

    static byte[] decode(String s) {
        try {
            return HexFormat.of().parseHex(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
