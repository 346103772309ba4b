/**
 * A priority level's seat demand over time (kube 1.27's fairqueuing Integrator and the controller's
 * seatDemandStats): the seats its requests occupy or wait for, integrated over wall time into a time-weighted
 * average, standard deviation and high watermark per adjustment period. Each period the smoothed demand becomes
 * max(envelope, 0.977 × smoothed + 0.023 × envelope), envelope = average + standard deviation: it follows a rise at
 * once and decays with a half-life of about five minutes of 10-second periods.
 */

/** What one period of integration found. */
export interface SeatDemandPeriod {
  readonly durationMs: number;
  readonly average: number;
  readonly deviation: number;
  readonly min: number;
  readonly max: number;
}

/** The integrator of a level's seat demand. */
export interface SeatDemandIntegrator {
  /** The demand from now on. */
  set(seats: number): void;
  /** The period up to now; integration starts again from now, at the current demand. */
  reset(): SeatDemandPeriod;
}

/** kube's seatDemandSmoothingCoefficient. */
export const seatDemandSmoothingCoefficient = 0.977;

/** Creates an integrator starting now at demand 0, on `now` (ms). */
export function createSeatDemandIntegrator(now: () => number): SeatDemandIntegrator {
  let last = now();
  let x = 0;
  let elapsed = 0;
  let integral = 0;
  let integralSquares = 0;
  let min = 0;
  let max = 0;
  const advance = (): void => {
    const t = now();
    const dt = (t - last) / 1000;
    last = t;
    elapsed += dt;
    integral += x * dt;
    integralSquares += x * x * dt;
  };
  return {
    set(seats) {
      advance();
      x = seats;
      if (seats < min) min = seats;
      if (seats > max) max = seats;
    },
    reset() {
      advance();
      // An empty period (two resets at one instant) has the current demand as its figures, not kube's NaN.
      const average = elapsed > 0 ? integral / elapsed : x;
      const variance = elapsed > 0 ? integralSquares / elapsed - average * average : 0;
      const period = { durationMs: elapsed * 1000, average, deviation: Math.sqrt(Math.max(0, variance)), min, max };
      elapsed = 0;
      integral = 0;
      integralSquares = 0;
      min = x;
      max = x;
      return period;
    },
  };
}

/** The demand figures a level keeps between adjustments. */
export interface SeatDemandStats {
  readonly average: number;
  readonly deviation: number;
  readonly highWatermark: number;
  readonly smoothed: number;
}

/** The figures before any period. */
export const noSeatDemand: SeatDemandStats = { average: 0, deviation: 0, highWatermark: 0, smoothed: 0 };

/** The figures after `period`, from those before it. */
export function nextSeatDemandStats(previous: SeatDemandStats, period: SeatDemandPeriod): SeatDemandStats {
  const envelope = period.average + period.deviation;
  const a = seatDemandSmoothingCoefficient;
  return {
    average: period.average,
    deviation: period.deviation,
    highWatermark: period.max,
    smoothed: Math.max(envelope, a * previous.smoothed + (1 - a) * envelope),
  };
}
