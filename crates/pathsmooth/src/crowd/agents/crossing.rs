//! An agent on its way over an off-mesh link: where it is along the way, update by update.

use glam::DVec2;

/// An agent on its way over an off-mesh link (a jump, a ladder: Detour's off-mesh
/// connection), animated as Detour's crowd animates one (`DT_CROWDAGENT_STATE_OFFMESH`):
/// from where the agent stood when it took the link to the link's entry, then over the
/// link to where it lands, in straight lines in 3D at the agent's speed. Meanwhile it
/// neither follows its path nor steps aside; the others avoid it as they avoid a moving
/// obstacle. See [`CrowdAgent::crossing`](super::CrowdAgent::crossing).
///
/// Points are given as the crowd gives an agent's: a plan-view point and a height along
/// the surface's up axis ([`Crowd::agent_point`](super::Crowd::agent_point) joins them).
///
/// Detour's crowd takes half the link's plan-view length over the agent's speed at the
/// time, so a vertical ladder takes no time at all; here the way is walked at the agent's
/// own speed over its 3D length, a climb included.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkCrossing {
    link: u32,
    /// Where it stood, the link's entry and where it lands: plan-view point and height.
    way: [(DVec2, f64); 3],
    /// The 3D lengths of the two stretches of the way.
    lengths: [f64; 2],
    speed: f64,
    /// Seconds since it took the link.
    elapsed: f64,
    /// Where that puts it (kept, so that the crowd's update reads it without the
    /// arithmetic, which only the crowd across floors compiles).
    point: (DVec2, f64),
}

impl LinkCrossing {
    /// The way over `link` from `from` by `entry` to `landing` at `speed`; `None` when the
    /// way has no length (nothing to animate: the agent is where it lands).
    pub(crate) fn new(link: u32, way: [(DVec2, f64); 3], speed: f64) -> Option<Self> {
        let lengths = lengths(&way);
        let total = lengths[0] + lengths[1];
        (total > 0.0 && total.is_finite()).then_some(LinkCrossing {
            link,
            way,
            lengths,
            speed,
            elapsed: 0.0,
            point: way[0],
        })
    }

    /// Makes the way end at `landing` instead (the agent's path from where it lands was
    /// planned again, from there), the time already on the way kept.
    pub(crate) fn land_at(&mut self, landing: (DVec2, f64)) {
        self.way[2] = landing;
        self.lengths = lengths(&self.way);
        self.point = self.at(self.elapsed);
    }

    /// The off-mesh link taken: its index in [`Surface::links`](crate::navmesh::Surface::links).
    pub fn link(&self) -> u32 {
        self.link
    }

    /// How long the whole way takes, seconds: its 3D length over the agent's speed.
    pub fn duration(&self) -> f64 {
        (self.lengths[0] + self.lengths[1]) / self.speed
    }

    /// The part of the way behind the agent, from 0 (it just took the link) towards 1 (it
    /// lands at the update that reaches 1).
    pub fn progress(&self) -> f64 {
        (self.elapsed / self.duration()).min(1.0)
    }

    /// Where the agent is on its way: the plan-view point and the height.
    pub fn point(&self) -> (DVec2, f64) {
        self.point
    }

    /// Where `elapsed` seconds put the agent on its way.
    fn at(&self, elapsed: f64) -> (DVec2, f64) {
        let mut s = elapsed * self.speed;
        for (k, &l) in self.lengths.iter().enumerate() {
            if s < l {
                let ((a, h), (b, g)) = (self.way[k], self.way[k + 1]);
                let t = s / l;
                return (a.lerp(b, t), h + (g - h) * t);
            }
            s -= l;
        }
        self.way[2]
    }

    /// Where it stood when it took the link, the link's entry and where it lands
    /// (plan-view point and height each).
    pub fn way(&self) -> [(DVec2, f64); 3] {
        self.way
    }

    /// Moves the agent `dt` seconds on; true when it has landed.
    pub(crate) fn advance(&mut self, dt: f64) -> bool {
        self.elapsed += dt;
        self.point = self.at(self.elapsed);
        self.elapsed >= self.duration()
    }
}

/// The 3D lengths of the two stretches of `way`.
fn lengths(way: &[(DVec2, f64); 3]) -> [f64; 2] {
    let length = |(a, h): (DVec2, f64), (b, g): (DVec2, f64)| {
        (a.distance_squared(b) + (h - g) * (h - g)).sqrt()
    };
    [length(way[0], way[1]), length(way[1], way[2])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_way_is_walked_at_the_agents_speed_over_its_3d_length() {
        // 3 m across to the foot of a ladder, then 4 m up it: 7 m at 2 m/s.
        let way = [
            (DVec2::new(0.0, 0.0), 0.0),
            (DVec2::new(3.0, 0.0), 0.0),
            (DVec2::new(3.0, 0.0), 4.0),
        ];
        let mut c = LinkCrossing::new(5, way, 2.0).unwrap();
        assert_eq!((c.link(), c.duration(), c.progress()), (5, 3.5, 0.0));
        assert_eq!(c.point(), way[0]);
        assert!(!c.advance(1.0));
        assert_eq!(c.point(), (DVec2::new(2.0, 0.0), 0.0));
        assert!(!c.advance(1.0));
        assert_eq!(c.point(), (DVec2::new(3.0, 0.0), 1.0));
        assert_eq!(c.progress(), 2.0 / 3.5);
        assert!(c.advance(1.5));
        assert_eq!((c.point(), c.progress()), (way[2], 1.0));
    }

    #[test]
    fn a_way_of_no_length_is_no_crossing() {
        let p = (DVec2::new(1.0, 2.0), 3.0);
        assert_eq!(LinkCrossing::new(0, [p, p, p], 1.0), None);
        let nan = (DVec2::new(f64::NAN, 0.0), 0.0);
        assert_eq!(LinkCrossing::new(0, [p, nan, p], 1.0), None);
    }
}
