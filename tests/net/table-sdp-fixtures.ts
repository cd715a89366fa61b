// Session descriptions as browsers write them for a data channel with trickle off. The two Chrome
// ones were produced by the Debian Chromium used in the tests (with and without mDNS-hidden local
// addresses); the Firefox one follows Firefox's layout (session-level fingerprint, upper-case UDP,
// hex ICE credentials, TCP candidates, end-of-candidates). Addresses are documentation ranges.

export const CHROME_OFFER_MDNS = `v=0
o=- 6068905679759440900 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
a=extmap-allow-mixed
a=msid-semantic: WMS
m=application 9 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 0.0.0.0
a=candidate:871501967 1 udp 2113937151 2efa3e10-e006-401c-9c4a-f061697611db.local 46746 typ host generation 0 network-cost 999
a=candidate:880835647 1 udp 2113942271 f55e4614-462a-4b02-8ed6-f02b7fca4f2d.local 58825 typ host generation 0 network-cost 999
a=ice-ufrag:jve+
a=ice-pwd:Q/G5nhMb76exYU5xtrbv4eLz
a=ice-options:trickle
a=fingerprint:sha-256 B5:B2:D7:25:3B:28:C1:C8:67:E7:02:BA:C3:02:30:BC:BA:BA:64:A4:62:C6:61:58:1A:B1:9A:9A:CA:5D:E0:62
a=setup:actpass
a=mid:0
a=sctp-port:5000
a=max-message-size:262144
`;

export const CHROME_OFFER_IP = `v=0
o=- 747237331865309603 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
a=extmap-allow-mixed
a=msid-semantic: WMS
m=application 57138 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 192.0.2.2
a=candidate:1137534467 1 udp 2113937151 192.0.2.2 57138 typ host generation 0 network-cost 999
a=candidate:2292951011 1 udp 2113942271 fd00::2 57376 typ host generation 0 network-cost 999
a=candidate:3 1 tcp 1518280447 192.0.2.2 9 typ host tcptype active generation 0 network-cost 999
a=ice-ufrag:1SIp
a=ice-pwd:PMFPgrv4+ySIJhxlTyNlUFpA
a=ice-options:trickle
a=fingerprint:sha-256 9A:66:77:F2:15:56:FE:E7:B3:9A:F1:D2:19:A6:A5:8D:A9:CD:FD:57:A3:DB:F6:B5:04:14:B3:ED:C3:6B:C3:C7
a=setup:actpass
a=mid:0
a=sctp-port:5000
a=max-message-size:262144
`.replace(/\n/g, '\r\n');

export const FIREFOX_ANSWER = `v=0
o=mozilla...THIS_IS_SDPARTA-128.0 8420185383720352318 0 IN IP4 0.0.0.0
s=-
t=0 0
a=fingerprint:sha-256 4F:1D:8A:09:77:3C:E2:B0:5A:6E:91:0C:44:2D:F7:83:19:AB:CD:EF:01:23:45:67:89:AB:CD:EF:10:32:54:76
a=group:BUNDLE 0
a=ice-options:trickle
a=msid-semantic:WMS *
m=application 49760 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 198.51.100.34
a=candidate:0 1 UDP 2122252543 198.51.100.34 49760 typ host
a=candidate:2 1 UDP 2122187007 2001:db8:0:0:0:0:0:7 49761 typ host
a=candidate:1 1 TCP 2105524479 198.51.100.34 9 typ host tcptype active
a=candidate:4 2 UDP 2122252542 198.51.100.34 49762 typ host
a=sendrecv
a=end-of-candidates
a=ice-pwd:2c7ef2e2e9e3a5b9a5b2f4a1d2c3e4f5
a=ice-ufrag:8a1b2c3d
a=mid:0
a=setup:active
a=sctp-port:5000
a=max-message-size:1073741823
`;
