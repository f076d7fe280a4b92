package io.paynotify.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The address rule of webhook targets (docs/api.md "Webhooks", Targets) over many spellings of the same addresses:
 * every literal here is parsed by the JDK as the resolver would hand it over, none is looked up.
 */
@Tag("unit")
class WebhookTargetsTest {

    static final List<String> REFUSED = List.of(
            // IPv4: loopback, "this network", link-local (the metadata service), Alibaba Cloud's metadata service
            "127.0.0.1",
            "127.8.9.10",
            "127.255.255.255",
            "0.0.0.0",
            "0.1.2.3",
            "0.255.255.255",
            "169.254.169.254",
            "169.254.0.0",
            "169.254.255.255",
            "100.100.100.200",
            // IPv6: unspecified, loopback, link-local, AWS's metadata service
            "::",
            "0:0:0:0:0:0:0:0",
            "::1",
            "0:0:0:0:0:0:0:1",
            "0000:0000:0000:0000:0000:0000:0000:0001",
            "fe80::1",
            "fe80::a9fe:a9fe",
            "FE80::1",
            "fe80::1%1",
            "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
            "fd00:ec2::254",
            "fd00:0ec2:0000:0000:0000:0000:0000:0254",
            "FD00:EC2::254",
            // IPv4-mapped
            "::ffff:127.0.0.1",
            "::ffff:7f00:1",
            "0:0:0:0:0:ffff:7f00:0001",
            "::ffff:169.254.169.254",
            "::ffff:a9fe:a9fe",
            "::FFFF:A9FE:A9FE",
            "::ffff:100.100.100.200",
            "::ffff:0.0.0.0",
            // IPv4-compatible
            "::127.0.0.1",
            "::7f00:1",
            "::169.254.169.254",
            "::a9fe:a9fe",
            "::100.100.100.200",
            "::0.0.0.1",
            // IPv4-translated, NAT64, 6to4
            "::ffff:0:127.0.0.1",
            "::ffff:0:a9fe:a9fe",
            "64:ff9b::169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::7f00:1",
            "64:ff9b::100.100.100.200",
            "2002:a9fe:a9fe::",
            "2002:a9fe:a9fe:1:2:3:4:5",
            "2002:7f00:1::1");

    static final List<String> ALLOWED = List.of(
            "8.8.8.8",
            "1.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "192.0.2.7",
            "100.64.0.1",
            "100.100.100.199",
            "100.100.100.201",
            "126.255.255.255",
            "128.0.0.1",
            "169.253.255.255",
            "169.255.0.1",
            "1.0.0.0",
            "2001:db8::1",
            "2606:4700:4700::1111",
            "fc00::1",
            "fd00:ec2::253",
            "fd00:ec2::255",
            "fd00:ec2:1::254",
            "fe7f:ffff::1",
            "fec0::1",
            "::ffff:8.8.8.8",
            "::ffff:10.1.2.3",
            "::8.8.8.8",
            "::ffff:0:8.8.8.8",
            "64:ff9b::8.8.8.8",
            "64:ff9b:1::a9fe:a9fe",
            "2002:808:808::1",
            "2001:0:a9fe:a9fe::1");

    @Test
    void loopbackLinkLocalUnspecifiedAndMetadataAddressesAreRefusedInEverySpelling() throws Exception {
        for (String literal : REFUSED) {
            assertEquals(false, WebhookTargets.allowed(InetAddress.getByName(literal)), literal);
        }
    }

    @Test
    void ordinaryAddressesAreAllowedPrivateNetworksIncluded() throws Exception {
        for (String literal : ALLOWED) {
            assertEquals(true, WebhookTargets.allowed(InetAddress.getByName(literal)), literal);
        }
    }

    @Test
    void anIpv4MappedAddressIsJudgedByItsIpv4AddressAlsoWhenItStaysAnIpv6Address() throws Exception {
        // the JDK turns a mapped literal into an Inet4Address; a resolver may hand over the 16 bytes as they are
        byte[] mapped = InetAddress.getByName("::ffff:169.254.169.254").getAddress();
        assertEquals(4, mapped.length, "the JDK unmaps");
        byte[] sixteen = new byte[16];
        sixteen[10] = (byte) 0xff;
        sixteen[11] = (byte) 0xff;
        System.arraycopy(mapped, 0, sixteen, 12, 4);
        InetAddress v6 = Inet6Address.getByAddress(null, sixteen, -1);
        assertInstanceOf(Inet6Address.class, v6);
        assertEquals(false, WebhookTargets.allowed(v6));
        sixteen[15] = 1;
        sixteen[12] = 8;
        sixteen[13] = 8;
        sixteen[14] = 8;
        assertEquals(true, WebhookTargets.allowed(Inet6Address.getByAddress(null, sixteen, -1)), "::ffff:8.8.8.1");
    }

    @Test
    void anAddressOfAnotherLengthIsRefused() {
        assertEquals(true, WebhookTargets.refused(new byte[0]));
        assertEquals(true, WebhookTargets.refused(new byte[5]));
    }
}
