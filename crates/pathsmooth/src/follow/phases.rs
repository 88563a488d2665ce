//! The kinematics of one stretch between two knots of a speed profile: the fastest run from
//! one speed to another over a given length under a speed cap, with constant acceleration
//! and braking (v² linear in distance in each phase), so times and positions are exact.

/// Acceleration and braking with the reciprocals the phase computation divides by.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Rates {
    accel: f64,
    brake: f64,
    inv_2a: f64,
    inv_2b: f64,
    inv_2ab: f64,
}

impl Rates {
    pub(super) fn new(accel: f64, brake: f64) -> Rates {
        Rates {
            accel,
            brake,
            inv_2a: 0.5 / accel,
            inv_2b: 0.5 / brake,
            inv_2ab: 0.5 / (accel + brake),
        }
    }
}

/// How the speed runs over one interval between knots: accelerate over [0, x1], cruise at
/// `vp` over [x1, x2], brake over [x2, len].
#[derive(Debug, Clone, Copy)]
pub(super) struct Phases {
    len: f64,
    v0: f64,
    vp: f64,
    v1: f64,
    x1: f64,
    x2: f64,
    t1: f64,
    t2: f64,
    t3: f64,
}

impl Phases {
    /// The fastest run over `len` from `v0` to `v1` under the cap, given that both end
    /// speeds are reachable from each other (which the passes guarantee).
    pub(super) fn new(len: f64, v0: f64, v1: f64, cap: f64, rates: &Rates) -> Phases {
        if v0 >= cap && v1 >= cap {
            // Cruising at the cap throughout (common on curves): one division.
            return Phases {
                len,
                v0,
                vp: cap,
                v1,
                x1: 0.0,
                x2: len,
                t1: 0.0,
                t2: len / cap,
                t3: 0.0,
            };
        }
        // Where the accelerate-from-v0 and brake-to-v1 parabolas (in v²) cross.
        let xp = ((v1 * v1 - v0 * v0 + 2.0 * rates.brake * len) * rates.inv_2ab).clamp(0.0, len);
        let vp2 = v0 * v0 + 2.0 * rates.accel * xp;
        let (vp, x1, x2) = if vp2 > cap * cap {
            let x1 = ((cap * cap - v0 * v0) * rates.inv_2a).clamp(0.0, len);
            let x2 = (len - (cap * cap - v1 * v1) * rates.inv_2b).clamp(x1, len);
            (cap, x1, x2)
        } else {
            (vp2.sqrt().max(v0).max(v1), xp, xp)
        };
        // Mean-speed forms (2·distance / (v_start + v_end)) stay accurate when the two
        // speeds are close, where (v_end − v_start)/a would cancel.
        let t1 = mean_speed_time(x1, v0, vp);
        let t2 = if x2 > x1 { (x2 - x1) / vp } else { 0.0 };
        let t3 = mean_speed_time(len - x2, vp, v1);
        Phases {
            len,
            v0,
            vp,
            v1,
            x1,
            x2,
            t1,
            t2,
            t3,
        }
    }

    pub(super) fn duration(&self) -> f64 {
        self.t1 + self.t2 + self.t3
    }

    /// Distance covered and speed after `tau` seconds (clamped to the interval).
    pub(super) fn at_time(&self, tau: f64) -> (f64, f64) {
        if tau < self.t1 {
            let dv = self.vp - self.v0;
            (
                (self.v0 * tau + dv * tau * tau / (2.0 * self.t1)).min(self.x1),
                self.v0 + dv * tau / self.t1,
            )
        } else if tau < self.t1 + self.t2 {
            ((self.x1 + self.vp * (tau - self.t1)).min(self.x2), self.vp)
        } else if tau < self.duration() {
            let tau = tau - self.t1 - self.t2;
            let dv = self.vp - self.v1;
            (
                (self.x2 + self.vp * tau - dv * tau * tau / (2.0 * self.t3)).min(self.len),
                (self.vp - dv * tau / self.t3).max(0.0),
            )
        } else {
            (self.len, self.v1)
        }
    }

    /// Speed at distance `x` into the interval.
    pub(super) fn speed_at(&self, x: f64) -> f64 {
        let (v0, vp, v1) = (self.v0, self.vp, self.v1);
        let v2 = if x < self.x1 {
            v0 * v0 + (vp * vp - v0 * v0) * (x / self.x1)
        } else if x <= self.x2 {
            vp * vp
        } else {
            v1 * v1 + (vp * vp - v1 * v1) * ((self.len - x) / (self.len - self.x2))
        };
        v2.max(0.0).sqrt()
    }
}

fn mean_speed_time(dist: f64, va: f64, vb: f64) -> f64 {
    if dist > 0.0 && va + vb > 0.0 {
        2.0 * dist / (va + vb)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn phases_cover_trapezoid_triangle_and_cruise() {
        let p = Phases::new(20.0, 0.0, 0.0, 5.0, &Rates::new(4.0, 6.0));
        assert!(close(p.t1, 1.25, 1e-12) && close(p.t3, 5.0 / 6.0, 1e-12));
        assert!(close(p.at_time(p.duration()).0, 20.0, 1e-12));
        let tri = Phases::new(2.0, 0.0, 0.0, 5.0, &Rates::new(4.0, 6.0));
        let vp = (2.0 * 2.0 * 4.0 * 6.0 / 10.0f64).sqrt();
        assert!(close(tri.vp, vp, 1e-12) && tri.t2 == 0.0);
        let cruise = Phases::new(3.0, 2.0, 2.0, 2.0, &Rates::new(4.0, 6.0));
        assert!(close(cruise.duration(), 1.5, 1e-12));
        assert!(close(cruise.speed_at(1.0), 2.0, 1e-12));
    }
}
