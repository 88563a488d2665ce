//! A problem found while building a surface, with the polygon or vertex it is in (so a
//! file reader can name the line) and the error the API returns.

use crate::error::Error;

/// What is wrong, and where: `polygon` and `vertex` are input indices (0-based).
#[derive(Debug, Clone)]
pub(crate) struct Issue {
    /// The polygon the problem is in, if one.
    pub polygon: Option<usize>,
    /// The vertex the problem is at, if one (and no polygon is named).
    pub vertex: Option<usize>,
    /// The error [`Surface::from_polygons`](super::Surface::from_polygons) returns.
    pub error: Error,
}

impl Issue {
    /// A bad polygon: [`Error::InvalidPolygon`] with `message`.
    pub fn polygon(p: usize, message: String) -> Self {
        Issue {
            polygon: Some(p),
            vertex: None,
            error: Error::InvalidPolygon { message },
        }
    }

    /// The build was cancelled ([`Error::Cancelled`]): no polygon to blame.
    pub fn cancelled() -> Self {
        Issue {
            polygon: None,
            vertex: None,
            error: Error::Cancelled,
        }
    }
}
