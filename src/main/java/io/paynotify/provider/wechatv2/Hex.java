package io.paynotify.provider.wechatv2;

/** Hex decoding that accepts either case and returns null on anything else. */
final class Hex {

    private Hex() {}

    static byte[] decode(String s) {
        if (s.length() % 2 != 0) {
            return null;
        }
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(s.charAt(2 * i), 16);
            int lo = Character.digit(s.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0 || s.charAt(2 * i) > 'f' || s.charAt(2 * i + 1) > 'f') {
                return null;
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }
}
