import { ZulipCdkError, foreignErrorCode } from '../../src/model';
import { rejection, thrownError } from './errors';

const boom = (): never => {
  throw new ZulipCdkError(foreignErrorCode('BOOM'), 'it broke');
};

describe('the shared error helpers fail the test when the error is not there', () => {
  it('thrownError: the error, or a failure naming what was expected', () => {
    expect(thrownError(boom, 'BOOM').message).toBe('it broke');
    expect(thrownError(boom).code).toBe('BOOM');
    expect(() => thrownError(() => 1)).toThrow('expected an error, but none was thrown');
    expect(() => thrownError(boom, 'OTHER')).toThrow('threw BOOM, not OTHER: it broke');
    expect(() =>
      thrownError(() => {
        throw new TypeError('plain');
      }),
    ).toThrow(TypeError);
  });

  it('rejection: the same for a promise', async () => {
    expect(
      (await rejection(Promise.reject(new ZulipCdkError(foreignErrorCode('BOOM'), 'x')), 'BOOM'))
        .code,
    ).toBe('BOOM');
    await expect(rejection(Promise.resolve(1), 'BOOM')).rejects.toThrow(
      'expected a rejection BOOM, but it resolved',
    );
    await expect(
      rejection(Promise.reject(new ZulipCdkError(foreignErrorCode('BOOM'), 'x')), 'OTHER'),
    ).rejects.toThrow('rejected with BOOM, not OTHER');
  });
});
