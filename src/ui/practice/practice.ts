// The practice board's state: a private copy of a position, orders for every power, the
// adjudicator's verdict, and the phases played so far. Pure; nothing here leaves the phone.
import { adjudicate } from '../../rules';
import type { Adjudication, Position } from '../../rules';
import { draftReducer, type Draft, type DraftAction } from '../orders/draft';

export interface PracticeState {
  readonly start: Position;
  readonly position: Position;
  readonly draft: Draft;
  /** Set after "adjudicate": the results of `position` with `draft`, shown until "next phase". */
  readonly verdict?: Adjudication;
  readonly played: readonly Adjudication[];
}

export type PracticeAction =
  | { readonly type: 'draft'; readonly action: DraftAction }
  | { readonly type: 'adjudicate' }
  | { readonly type: 'back' }
  | { readonly type: 'next' }
  | { readonly type: 'reset' };

export function practiceFrom(position: Position): PracticeState {
  return { start: position, position, draft: [], played: [] };
}

export function practiceReducer(state: PracticeState, action: PracticeAction): PracticeState {
  switch (action.type) {
    case 'draft':
      return state.verdict ? state : { ...state, draft: draftReducer(state.draft, action.action) };
    case 'adjudicate':
      return state.verdict ? state : { ...state, verdict: adjudicate(state.position, state.draft) };
    case 'back': {
      // Look at the orders again (to change them) without moving on.
      const { verdict: _dropped, ...rest } = state;
      return rest;
    }
    case 'next': {
      if (!state.verdict) return state;
      return { start: state.start, position: state.verdict.next, draft: [], played: [...state.played, state.verdict] };
    }
    case 'reset':
      return practiceFrom(state.start);
  }
}
