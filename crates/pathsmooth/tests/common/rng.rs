//! The tests' one seeded generator: xorshift64* (Vigna, "An experimental exploration of
//! Marsaglia's xorshift generators, scrambled", 2016). Small, deterministic and the same on
//! every platform, so a test that asserts numbers computed from its output stays true.
//! Property tests draw their input from proptest instead.

use glam::DVec2;

/// A xorshift64* generator.
pub struct Rng(u64);

impl Rng {
    /// The generator started at `seed` (xorshift needs a state other than 0: 0 becomes 1).
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// A vector with coordinates uniform in [−1, 1).
    pub fn vec(&mut self) -> DVec2 {
        DVec2::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0))
    }

    /// A convex polygon, counter-clockwise: 3 to 7 points on a circle round `c` of radius
    /// drawn in [0.3, 2.5), at sorted random angles.
    pub fn convex_ring(&mut self, c: DVec2) -> Vec<DVec2> {
        let r = self.range(0.3, 2.5);
        let n = 3 + (self.next_u64() % 5) as usize;
        let mut angles: Vec<f64> = (0..n)
            .map(|_| self.range(0.0, std::f64::consts::TAU))
            .collect();
        angles.sort_by(f64::total_cmp);
        angles.dedup();
        angles
            .iter()
            .map(|&a| c + r * DVec2::from_angle(a))
            .collect()
    }
}
