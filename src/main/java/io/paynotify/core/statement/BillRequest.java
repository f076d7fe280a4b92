package io.paynotify.core.statement;

import java.time.LocalDate;

/**
 * What a bill is checked against as it is read (CONTRACT.md §11 "Checked against the request").
 *
 * @param billDate the Beijing day the bill must be of
 * @param account WeChat the channel's {@code mch-id}; Alipay the {@code seller-id} when set, else null (unchecked)
 */
public record BillRequest(LocalDate billDate, String account) {}
