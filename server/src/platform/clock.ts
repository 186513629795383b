/** The one place time and randomness enter the plugin, so tests can control them (jest.spyOn on this service). */
import crypto from 'crypto';

const clock = () => ({
  /** Milliseconds since the epoch. */
  now: (): number => Date.now(),
  /** `size` bytes from the CSPRNG. */
  randomBytes: (size: number): Buffer => crypto.randomBytes(size),
  /** An integer in [min, max) from the CSPRNG. */
  randomInt: (min: number, max: number): number => crypto.randomInt(min, max),
});

export type ClockService = ReturnType<typeof clock>;
export default clock;
