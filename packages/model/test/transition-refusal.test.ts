import { describe, expect, it } from 'vitest';
import { transitionRefusal } from '../src';

describe('how a refused transition is answered', () => {
  it('is a 403 for the role and a 409 for the record, each with its code', () => {
    expect(transitionRefusal('role')).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect(transitionRefusal('state')).toEqual({ status: 409, code: 'ILLEGAL_TRANSITION' });
    expect(transitionRefusal('guard')).toEqual({ status: 409, code: 'GUARD_FAILED' });
  });
});
