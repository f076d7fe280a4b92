/**
 * How the providers write, sign and encrypt their messages: one implementation, used by the simulator's notice sender
 * and gateway, by paynotify's test fixtures and by the benchmarks. It uses the JDK only and knows nothing of
 * paynotify's code, and the simulator's tests prove every part of it against the providers' official SDKs.
 *
 * <ul>
 *   <li>{@link io.paynotify.simulator.sign.WechatV2Signer}: the MD5 / HMAC-SHA256 {@code sign} of a field map, the
 *       {@code <xml>} body, the AES-256-ECB {@code req_info} of refund notices;
 *   <li>{@link io.paynotify.simulator.sign.WechatV3Signer}: the AEAD_AES_256_GCM resource, the SHA256withRSA
 *       {@code Wechatpay-*} signature of notifications and query answers;
 *   <li>{@link io.paynotify.simulator.sign.AlipaySigner}: the RSA2 / RSA sign content of notifications and requests,
 *       the form body in its own charset (UTF-8 or GBK), the signature of a query answer;
 *   <li>{@link io.paynotify.simulator.sign.Pem} (RSA keys from PEM or base64) and
 *       {@link io.paynotify.simulator.sign.BeijingTime} (the providers' UTC+08:00 time formats).
 * </ul>
 *
 * <p>Every method is a pure function of its arguments (nonces and times are passed in); a failure of the JDK's
 * crypto is a bug and is thrown unchecked.
 */
package io.paynotify.simulator.sign;
