// DATC v3.1 chapter 6 (Lucas B. Kruijswijk): every test case, 6.A.1 to 6.J.11, one `it` each.
// The cases' data are in data/ (datc.json plus datc-extra.json); datc-run.ts says what is checked.
// A name ending in "(project: ...)" is a case where the project's rule choice differs from DATC's
// preference; the expected result is the project's, and datc-extra.json says why.
import { describe, it } from 'vitest';
import { runDatc } from './datc-run';

describe('6.A basic checks', () => {
  it('6.A.1 moving to an area that is not a neighbour', () => runDatc('6.A.1'));
  it('6.A.2 move army to sea', () => runDatc('6.A.2'));
  it('6.A.3 move fleet to land', () => runDatc('6.A.3'));
  it('6.A.4 move to own sector', () => runDatc('6.A.4'));
  it('6.A.5 move to own sector with convoy', () => runDatc('6.A.5'));
  it('6.A.6 ordering a unit of another country', () => runDatc('6.A.6'));
  it('6.A.7 only armies can be convoyed', () => runDatc('6.A.7'));
  it('6.A.8 support to hold yourself is not possible', () => runDatc('6.A.8'));
  it('6.A.9 fleets must follow coast if not on sea', () => runDatc('6.A.9'));
  it('6.A.10 support on unreachable destination not possible', () => runDatc('6.A.10'));
  it('6.A.11 simple bounce', () => runDatc('6.A.11'));
  it('6.A.12 bounce of three units', () => runDatc('6.A.12'));
});

describe('6.B coastal issues', () => {
  it('6.B.1 moving with unspecified coast when coast is necessary', () => runDatc('6.B.1'));
  it('6.B.2 moving with unspecified coast when coast is not necessary', () => runDatc('6.B.2'));
  it('6.B.3 moving with wrong coast when coast is not necessary', () => runDatc('6.B.3'));
  it('6.B.4 support to unreachable coast allowed', () => runDatc('6.B.4'));
  it('6.B.5 support from unreachable coast not allowed', () => runDatc('6.B.5'));
  it('6.B.6 support can be cut with other coast', () => runDatc('6.B.6'));
  it('6.B.7 supporting own unit with unspecified coast', () => runDatc('6.B.7'));
  it('6.B.8 supporting with unspecified coast when only one coast is possible', () => runDatc('6.B.8'));
  it('6.B.9 supporting with wrong coast', () => runDatc('6.B.9'));
  it('6.B.10 unit ordered with wrong coast', () => runDatc('6.B.10'));
  it('6.B.11 coast cannot be ordered to change', () => runDatc('6.B.11'));
  it('6.B.12 army movement with coastal specification', () => runDatc('6.B.12'));
  it('6.B.13 coastal crawl not allowed', () => runDatc('6.B.13'));
  it('6.B.14 building with unspecified coast', () => runDatc('6.B.14'));
  it('6.B.15 supporting foreign unit with unspecified coast', () => runDatc('6.B.15'));
});

describe('6.C circular movement', () => {
  it('6.C.1 three army circular movement', () => runDatc('6.C.1'));
  it('6.C.2 three army circular movement with support', () => runDatc('6.C.2'));
  it('6.C.3 a disrupted three army circular movement', () => runDatc('6.C.3'));
  it('6.C.4 a circular movement with attacked convoy', () => runDatc('6.C.4'));
  it('6.C.5 a disrupted circular movement due to dislodged convoy', () => runDatc('6.C.5'));
  it('6.C.6 two armies with two convoys', () => runDatc('6.C.6'));
  it('6.C.7 disrupted unit swap', () => runDatc('6.C.7'));
  it('6.C.8 no self dislodgement in disrupted circular movement', () => runDatc('6.C.8'));
  it('6.C.9 no help in dislodgement of own unit in disrupted circular movement', () => runDatc('6.C.9'));
});

describe('6.D supports and dislodges', () => {
  it('6.D.1 supported hold can prevent dislodgement', () => runDatc('6.D.1'));
  it('6.D.2 a move cuts support on hold', () => runDatc('6.D.2'));
  it('6.D.3 a move cuts support on move', () => runDatc('6.D.3'));
  it('6.D.4 support to hold on unit supporting a hold allowed', () => runDatc('6.D.4'));
  it('6.D.5 support to hold on unit supporting a move allowed', () => runDatc('6.D.5'));
  it('6.D.6 support to hold on convoying unit allowed', () => runDatc('6.D.6'));
  it('6.D.7 support to hold on moving unit not allowed', () => runDatc('6.D.7'));
  it('6.D.8 failed convoy cannot receive hold support', () => runDatc('6.D.8'));
  it('6.D.9 support to move on holding unit not allowed', () => runDatc('6.D.9'));
  it('6.D.10 self dislodgment prohibited', () => runDatc('6.D.10'));
  it('6.D.11 no self dislodgment of returning unit', () => runDatc('6.D.11'));
  it('6.D.12 supporting a foreign unit to dislodge own unit prohibited', () => runDatc('6.D.12'));
  it('6.D.13 supporting a foreign unit to dislodge a returning own unit prohibited', () => runDatc('6.D.13'));
  it('6.D.14 supporting a foreign unit is not enough to prevent dislodgement', () => runDatc('6.D.14'));
  it('6.D.15 defender cannot cut support for attack on itself', () => runDatc('6.D.15'));
  it('6.D.16 convoying a unit dislodging a unit of same power is allowed', () => runDatc('6.D.16'));
  it('6.D.17 dislodgement cuts supports', () => runDatc('6.D.17'));
  it('6.D.18 a surviving unit will sustain support', () => runDatc('6.D.18'));
  it('6.D.19 even when surviving is in alternative way', () => runDatc('6.D.19'));
  it('6.D.20 unit cannot cut support of its own country', () => runDatc('6.D.20'));
  it('6.D.21 dislodging does not cancel a support cut', () => runDatc('6.D.21'));
  it('6.D.22 impossible fleet move cannot be supported', () => runDatc('6.D.22'));
  it('6.D.23 impossible coast move cannot be supported', () => runDatc('6.D.23'));
  it('6.D.24 impossible army move cannot be supported', () => runDatc('6.D.24'));
  it('6.D.25 failing hold support can be supported', () => runDatc('6.D.25'));
  it('6.D.26 failing move support can be supported', () => runDatc('6.D.26'));
  it('6.D.27 failing convoy can be supported', () => runDatc('6.D.27'));
  it('6.D.28 impossible move and support', () => runDatc('6.D.28'));
  it('6.D.29 move to impossible coast and support', () => runDatc('6.D.29'));
  it('6.D.30 move without coast and support', () => runDatc('6.D.30'));
  it('6.D.31 a tricky impossible support', () => runDatc('6.D.31'));
  it('6.D.32 a missing fleet', () => runDatc('6.D.32'));
  it('6.D.33 unwanted support allowed', () => runDatc('6.D.33'));
  it('6.D.34 support targeting own area not allowed', () => runDatc('6.D.34'));
});

describe('6.E head-to-head battles and beleaguered garrison', () => {
  it("6.E.1 dislodged unit has no effect on attacker's area", () => runDatc('6.E.1'));
  it('6.E.2 no self dislodgement in head-to-head battle', () => runDatc('6.E.2'));
  it('6.E.3 no help in dislodging own unit', () => runDatc('6.E.3'));
  it('6.E.4 non-dislodged loser still has effect', () => runDatc('6.E.4'));
  it('6.E.5 loser dislodged by another army still has effect', () => runDatc('6.E.5'));
  it('6.E.6 not dislodge because of own support still has effect', () => runDatc('6.E.6'));
  it('6.E.7 no self dislodgement with beleaguered garrison', () => runDatc('6.E.7'));
  it('6.E.8 no self dislodgement with beleaguered garrison and head-to-head battle', () => runDatc('6.E.8'));
  it('6.E.9 almost self dislodgement with beleaguered garrison', () => runDatc('6.E.9'));
  it('6.E.10 almost circular movement with no self dislodgement with beleaguered garrison', () => runDatc('6.E.10'));
  it('6.E.11 no self dislodgement with beleaguered garrison, unit swap with adjacent convoying and two coasts', () => runDatc('6.E.11'));
  it('6.E.12 support on attack on own unit can be used for other means', () => runDatc('6.E.12'));
  it('6.E.13 three way beleaguered garrison', () => runDatc('6.E.13'));
  it('6.E.14 illegal head-to-head battle can still defend', () => runDatc('6.E.14'));
  it('6.E.15 the friendly head-to-head battle', () => runDatc('6.E.15'));
});

describe('6.F convoys', () => {
  it('6.F.1 no convoy in coastal areas', () => runDatc('6.F.1'));
  it('6.F.2 an army being convoyed can bounce as normal', () => runDatc('6.F.2'));
  it('6.F.3 an army being convoyed can receive support', () => runDatc('6.F.3'));
  it('6.F.4 an attacked convoy is not disrupted', () => runDatc('6.F.4'));
  it('6.F.5 a beleaguered convoy is not disrupted', () => runDatc('6.F.5'));
  it('6.F.6 dislodged convoy does not cut support', () => runDatc('6.F.6'));
  it('6.F.7 dislodged convoy does not cause contested area', () => runDatc('6.F.7'));
  it('6.F.8 dislodged convoy does not cause a bounce', () => runDatc('6.F.8'));
  it('6.F.9 dislodge of multi-route convoy', () => runDatc('6.F.9'));
  it('6.F.10 dislodge of multi-route convoy with foreign fleet', () => runDatc('6.F.10'));
  it('6.F.11 dislodge of multi-route convoy with only foreign fleets', () => runDatc('6.F.11'));
  it('6.F.12 dislodged convoying fleet not on route', () => runDatc('6.F.12'));
  it('6.F.13 the unwanted alternative', () => runDatc('6.F.13'));
  it('6.F.14 simple convoy paradox', () => runDatc('6.F.14'));
  it('6.F.15 simple convoy paradox with additional convoy', () => runDatc('6.F.15'));
  it("6.F.16 pandin's paradox", () => runDatc('6.F.16'));
  it("6.F.17 pandin's extended paradox", () => runDatc('6.F.17'));
  it('6.F.18 betrayal paradox', () => runDatc('6.F.18'));
  it('6.F.19 multi-route convoy disruption paradox', () => runDatc('6.F.19'));
  it('6.F.20 unwanted multi-route convoy paradox', () => runDatc('6.F.20'));
  it("6.F.21 dad's army convoy", () => runDatc('6.F.21'));
  it('6.F.22 second order paradox with two resolutions', () => runDatc('6.F.22'));
  it('6.F.23 second order paradox with two exclusive convoys', () => runDatc('6.F.23'));
  it('6.F.24 second order paradox with no resolution', () => runDatc('6.F.24'));
  it('6.F.25 cut support last', () => runDatc('6.F.25'));
});

describe('6.G convoying to adjacent provinces', () => {
  it('6.G.1 two units can swap provinces by convoy', () => runDatc('6.G.1'));
  it('6.G.2 kidnapping an army', () => runDatc('6.G.2'));
  it('6.G.3 an unwanted disrupted convoy to adjacent province', () => runDatc('6.G.3'));
  it('6.G.4 an unwanted disrupted convoy to adjacent province and opposite move', () => runDatc('6.G.4'));
  it('6.G.5 swapping with multiple fleets with one own fleet', () => runDatc('6.G.5'));
  it('6.G.6 swapping with unintended intent', () => runDatc('6.G.6'));
  it('6.G.7 swapping with illegal intent', () => runDatc('6.G.7'));
  it("6.G.8 explicit convoy that isn't there", () => runDatc('6.G.8'));
  it('6.G.9 swapped or dislodged?', () => runDatc('6.G.9'));
  it('6.G.10 swapped or an head-to-head battle?', () => runDatc('6.G.10'));
  it('6.G.11 a convoy to an adjacent province with a paradox', () => runDatc('6.G.11'));
  it('6.G.12 swapping two units with two convoys', () => runDatc('6.G.12'));
  it('6.G.13 support cut on attack on itself via convoy', () => runDatc('6.G.13'));
  it('6.G.14 bounce by convoy to adjacent province', () => runDatc('6.G.14'));
  it('6.G.15 bounce and dislodge with double convoy', () => runDatc('6.G.15'));
  it('6.G.16 the two unit in one area bug, moving by convoy', () => runDatc('6.G.16'));
  it('6.G.17 the two unit in one area bug, moving over land', () => runDatc('6.G.17'));
  it('6.G.18 the two unit in one area bug, with double convoy', () => runDatc('6.G.18'));
  it('6.G.19 swapping with intent of unnecessary convoy', () => runDatc('6.G.19'));
  it('6.G.20 explicit convoy to adjacent province disrupted', () => runDatc('6.G.20'));
});

describe('6.H retreating', () => {
  it('6.H.1 no supports during retreat', () => runDatc('6.H.1'));
  it('6.H.2 no supports from retreating unit', () => runDatc('6.H.2'));
  it('6.H.3 no convoy during retreat', () => runDatc('6.H.3'));
  it('6.H.4 no other moves during retreat', () => runDatc('6.H.4'));
  it('6.H.5 a unit may not retreat to the area from which it is attacked', () => runDatc('6.H.5'));
  it('6.H.6 unit may not retreat to a contested area', () => runDatc('6.H.6'));
  it('6.H.7 multiple retreat to same area will disband units', () => runDatc('6.H.7'));
  it('6.H.8 triple retreat to same area will disband units', () => runDatc('6.H.8'));
  it('6.H.9 dislodged unit will not make attackers area contested', () => runDatc('6.H.9'));
  it('6.H.10 not retreating to attacker does not mean contested', () => runDatc('6.H.10'));
  it('6.H.11 retreat when dislodged by adjacent convoy', () => runDatc('6.H.11'));
  it('6.H.12 retreat when dislodged by adjacent convoy while trying to do the same', () => runDatc('6.H.12'));
  it('6.H.13 no retreat with convoy in movement phase', () => runDatc('6.H.13'));
  it('6.H.14 no retreat with support in movement phase', () => runDatc('6.H.14'));
  it('6.H.15 no coastal crawl in retreat', () => runDatc('6.H.15'));
  it('6.H.16 contested for both coasts', () => runDatc('6.H.16'));
});

describe('6.I building', () => {
  it('6.I.1 too many build orders', () => runDatc('6.I.1'));
  it('6.I.2 fleets cannot be build in land areas', () => runDatc('6.I.2'));
  it('6.I.3 supply center must be empty for building', () => runDatc('6.I.3'));
  it('6.I.4 both coasts must be empty for building', () => runDatc('6.I.4'));
  it('6.I.5 building in home supply center that is not owned', () => runDatc('6.I.5'));
  it('6.I.6 building in owned supply center that is not a home supply center', () => runDatc('6.I.6'));
  it('6.I.7 only one build in a home supply center', () => runDatc('6.I.7'));
});

describe('6.J civil disorder and disbands', () => {
  it('6.J.1 too many disband orders', () => runDatc('6.J.1'));
  it('6.J.2 removing the same unit twice', () => runDatc('6.J.2'));
  it('6.J.3 civil disorder two armies with different distance (project: home centres)', () => runDatc('6.J.3'));
  it('6.J.4 civil disorder two armies with equal distance', () => runDatc('6.J.4'));
  it('6.J.5 civil disorder two fleets with different distance', () => runDatc('6.J.5'));
  it('6.J.6 civil disorder two fleets with equal distance (project: home centres)', () => runDatc('6.J.6'));
  it('6.J.7 civil disorder two fleets and army with equal distance', () => runDatc('6.J.7'));
  it('6.J.8 civil disorder a fleet with shorter distance than the army', () => runDatc('6.J.8'));
  it('6.J.9 civil disorder must be counted from both coasts', () => runDatc('6.J.9'));
  it('6.J.10 civil disorder counting convoying distance (project: home centres)', () => runDatc('6.J.10'));
  it('6.J.11 distance to owned supply center (project: home centres)', () => runDatc('6.J.11'));
});
