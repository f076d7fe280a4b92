package io.paynotify.testing;

import io.paynotify.config.ChannelKeyParser;
import io.paynotify.provider.alipay.AlipayKeys;
import io.paynotify.provider.wechatv2.WechatV2Keys;
import io.paynotify.provider.wechatv3.WechatV3Keys;
import java.util.List;

/** Every provider's channel key parser, for registries built without CDI. */
public final class KeyParsers {

    private KeyParsers() {}

    public static List<ChannelKeyParser> all() {
        return List.of(new WechatV2Keys.Parser(), new WechatV3Keys.Parser(), new AlipayKeys.Parser());
    }
}
