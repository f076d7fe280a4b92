package io.paynotify.events;

import java.net.InetAddress;

/**
 * Which resolved addresses a webhook attempt may connect to (docs/api.md "Webhooks", Targets): never this host, the
 * local link, the unspecified address or a cloud metadata service, in whatever form the address comes.
 *
 * <p>Refused IPv4 addresses: {@code 0.0.0.0/8} (unspecified, "this network"), {@code 127.0.0.0/8} (loopback),
 * {@code 169.254.0.0/16} (link-local: the metadata service of AWS, GCP, Azure, OpenStack at
 * {@code 169.254.169.254}) and {@code 100.100.100.200} (Alibaba Cloud's metadata service). Refused IPv6 addresses:
 * {@code ::} and {@code ::1}, {@code fe80::/10} (link-local) and {@code fd00:ec2::254} (AWS's metadata service over
 * IPv6). An IPv6 address that carries an IPv4 address is judged by that IPv4 address: IPv4-mapped
 * ({@code ::ffff:a.b.c.d}), IPv4-compatible ({@code ::a.b.c.d}), IPv4-translated ({@code ::ffff:0:a.b.c.d}), NAT64
 * ({@code 64:ff9b::a.b.c.d}) and 6to4 ({@code 2002:aabb:ccdd::/48}). Everything else is allowed, private networks
 * included: a merchant may run its endpoint there.
 */
final class WebhookTargets {

    private WebhookTargets() {}

    /** False when an attempt must not connect to this address. */
    static boolean allowed(InetAddress address) {
        return !refused(address.getAddress());
    }

    /** The rule on the address's bytes (4 for IPv4, 16 for IPv6), network order. */
    static boolean refused(byte[] ip) {
        if (ip.length == 4) {
            return refusedV4(ip, 0);
        }
        if (ip.length != 16) {
            return true;
        }
        if (zero(ip, 0, 10) && u8(ip[10]) == 0xff && u8(ip[11]) == 0xff) {
            return refusedV4(ip, 12); // ::ffff:a.b.c.d, IPv4-mapped
        }
        if (zero(ip, 0, 12)) {
            return refusedV4(ip, 12); // ::a.b.c.d, IPv4-compatible; :: and ::1 are 0.0.0.0 and 0.0.0.1 here
        }
        if (zero(ip, 0, 8) && u8(ip[8]) == 0xff && u8(ip[9]) == 0xff && zero(ip, 10, 12)) {
            return refusedV4(ip, 12); // ::ffff:0:a.b.c.d, IPv4-translated
        }
        if (u8(ip[0]) == 0x00 && u8(ip[1]) == 0x64 && u8(ip[2]) == 0xff && u8(ip[3]) == 0x9b && zero(ip, 4, 12)) {
            return refusedV4(ip, 12); // 64:ff9b::a.b.c.d, NAT64's well-known prefix
        }
        if (u8(ip[0]) == 0x20 && u8(ip[1]) == 0x02) {
            return refusedV4(ip, 2); // 2002:aabb:ccdd::/48, 6to4
        }
        if (u8(ip[0]) == 0xfe && (u8(ip[1]) & 0xc0) == 0x80) {
            return true; // fe80::/10
        }
        return isAwsMetadataV6(ip);
    }

    private static boolean refusedV4(byte[] ip, int at) {
        int a = u8(ip[at]);
        int b = u8(ip[at + 1]);
        int c = u8(ip[at + 2]);
        int d = u8(ip[at + 3]);
        return a == 0 || a == 127 || (a == 169 && b == 254) || (a == 100 && b == 100 && c == 100 && d == 200);
    }

    /** {@code fd00:ec2::254}. */
    private static boolean isAwsMetadataV6(byte[] ip) {
        return u8(ip[0]) == 0xfd
                && u8(ip[1]) == 0x00
                && u8(ip[2]) == 0x0e
                && u8(ip[3]) == 0xc2
                && zero(ip, 4, 14)
                && u8(ip[14]) == 0x02
                && u8(ip[15]) == 0x54;
    }

    private static boolean zero(byte[] ip, int from, int to) {
        for (int i = from; i < to; i++) {
            if (ip[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static int u8(byte b) {
        return b & 0xff;
    }
}
