// Borders read off the board drawing, as an independent check of the hand-typed adjacency.
// Map based on Diplomacy.svg by Martin Asal, CC BY-SA 3.0 DE
// (https://creativecommons.org/licenses/by-sa/3.0/de/); this list is derived from it and
// shares its licence. How it was made: every pair of province outlines (split coasts as their
// own outlines, 'spa/nc') that run along each other for more than half a pixel, with the
// length of the shared stretch in pixels of the 610x560 drawing. Pairs inside one province
// (the two coasts of Spain) are left out.
//
// Known quirks of the drawing, checked in map.test.ts: the North Sea is drawn as a plain
// shape under the land, so its borders with bel, hol, lon, nwy and yor do not show and a
// 4-pixel overlap with Liverpool appears; Denmark and Sweden are separated by water in the
// drawing (their adjacency is a rule: seed 003 §7).
export const SVG_BORDERS: readonly string[] = [
  'adr-alb 28 adr-apu 65 adr-ion 13 adr-tri 98 adr-ven 65 aeg-bul/sc 17 aeg-con 32 aeg-eas 27 aeg-gre 148',
  'aeg-ion 10 aeg-smy 56 alb-gre 21 alb-ion 8 alb-ser 31 alb-tri 16 ank-arm 22 ank-bla 105 ank-con 36',
  'ank-smy 101 apu-ion 26 apu-nap 38 apu-rom 14 apu-ven 6 arm-bla 19 arm-sev 45 arm-smy 22 arm-syr 50 bal-ber 39',
  'bal-bot 48 bal-den 58 bal-kie 29 bal-lvn 28 bal-pru 87 bal-swe 64 bar-nwg 33 bar-nwy 83 bar-stp/nc 493',
  'bel-bur 15 bel-eng 11 bel-hol 27 bel-pic 27 bel-ruh 18 ber-kie 38 ber-mun 25 ber-pru 27 ber-sil 9',
  'bla-bul/ec 31 bla-con 45 bla-rum 30 bla-sev 343 boh-gal 24 boh-mun 62 boh-sil 41 boh-tyr 11 boh-vie 36',
  'bot-fin 153 bot-lvn 54 bot-stp/sc 72 bot-swe 156 bre-eng 73 bre-gas 18 bre-mao 60 bre-par 36 bre-pic 10',
  'bud-gal 68 bud-rum 73 bud-ser 34 bud-tri 42 bud-vie 46 bul/ec-con 25 bul/ec-rum 70 bul/ec-ser 19',
  'bul/sc-con 18 bul/sc-gre 32 bul/sc-ser 36 bur-gas 28 bur-mar 38 bur-mun 18 bur-par 54 bur-pic 10 bur-ruh 18',
  'bur-swi 25 cly-edi 22 cly-lvp 6 cly-nao 50 cly-nwg 33 con-smy 52 den-hel 17 den-kie 10 den-nth 13 den-ska 56',
  'eas-ion 5 eas-smy 124 eas-syr 54 edi-lvp 19 edi-nth 4 edi-nwg 20 edi-yor 8 eng-iri 17 eng-lon 22 eng-mao 20',
  'eng-nth 7 eng-pic 27 eng-wal 50 fin-nwy 74 fin-stp/nc 94 fin-stp/sc 34 fin-swe 54 gal-rum 22 gal-sil 18',
  'gal-ukr 43 gal-vie 16 gal-war 58 gas-mao 41 gas-mar 37 gas-par 15 gas-spa/nc 31 gas-spa/sc 23 gre-ion 126',
  'gre-ser 21 hel-hol 15 hel-kie 44 hel-nth 71 hol-kie 36 hol-ruh 14 ion-nap 47 ion-tun 43 ion-tys 20 iri-lvp 56',
  'iri-mao 42 iri-nao 27 iri-wal 71 kie-mun 23 kie-ruh 38 lon-wal 27 lon-yor 13 lvn-mos 79 lvn-pru 50',
  'lvn-stp/sc 54 lvn-war 17 lvp-nao 17 lvp-nth 4 lvp-wal 22 lvp-yor 37 lyo-mar 65 lyo-pie 25 lyo-spa/sc 75',
  'lyo-tus 17 lyo-tys 18 lyo-wes 78 mao-naf 48 mao-nao 58 mao-por 99 mao-spa/nc 108 mao-spa/sc 25 mao-wes 5',
  'mar-pie 41 mar-spa/sc 20 mar-swi 21 mos-sev 183 mos-stp/nc 95 mos-stp/sc 189 mos-ukr 85 mos-war 20 mun-ruh 43',
  'mun-sil 18 mun-swi 28 mun-tyr 62 naf-tun 41 naf-wes 192 nao-nwg 177 nap-rom 10 nap-tys 56 nth-nwg 92',
  'nth-ska 22 nwg-nwy 188 nwy-ska 47 nwy-stp/nc 16 nwy-swe 190 par-pic 41 pie-swi 42 pie-tus 5 pie-tyr 5',
  'pie-ven 25 por-spa/nc 89 por-spa/sc 33 pru-sil 24 pru-war 55 rom-tus 19 rom-tys 35 rom-ven 17 rum-ser 9',
  'rum-sev 35 rum-ukr 29 ser-tri 41 sev-ukr 105 sil-war 33 ska-swe 43 smy-syr 48 spa/sc-wes 94 swi-tyr 28',
  'tri-tyr 20 tri-ven 15 tri-vie 16 tun-tys 27 tun-wes 17 tus-tys 14 tus-ven 38 tyr-ven 37 tyr-vie 24 tys-wes 26',
  'ukr-war 18 wal-yor 8',
];
