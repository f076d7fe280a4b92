package io.paynotify.simulator.demo;

import io.paynotify.simulator.trigger.Channel;

/** One order the demo registers, and the transaction id paynotify recorded for it once paid. */
record DemoOrder(Channel channel, String outTradeNo, long amountFen, String transactionId) {

    DemoOrder paidWith(String id) {
        return new DemoOrder(channel, outTradeNo, amountFen, id);
    }

    String name() {
        return channel.name() + "/" + outTradeNo;
    }
}
