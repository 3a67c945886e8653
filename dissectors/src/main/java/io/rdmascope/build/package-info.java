/**
 * The packet builder: encodes frames from the same field declarations the dissectors decode with,
 * so tests, the sample-capture generator and benchmarks craft traffic without a second copy of any
 * offset (DESIGN.md, "The field model").
 *
 * <ul>
 *   <li>{@link io.rdmascope.build.HeaderWriter} writes one field's value at its declared offset,
 *       mask and byte order; {@link io.rdmascope.build.Header} is one header instance being built.</li>
 *   <li>{@link io.rdmascope.build.RocePacket} builds RoCEv2 (IPv4/IPv6), RoCEv1 and native
 *       InfiniBand packets for every opcode of the opcode table, with lengths, pad and CRCs worked
 *       out; {@link io.rdmascope.build.BuiltPacket} tells where it put each header.</li>
 *   <li>{@link io.rdmascope.build.InvariantCrc} and {@link io.rdmascope.build.VariantCrc} compute the
 *       ICRC and VCRC independently of the dissector's {@code Crcs}, so each checks the other.</li>
 *   <li>{@link io.rdmascope.build.EthernetFrame} builds the plain UDP/TCP frames that surround RDMA
 *       traffic; {@link io.rdmascope.build.Addresses} parses address literals.</li>
 * </ul>
 */
package io.rdmascope.build;
