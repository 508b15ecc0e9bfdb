//! Who is looking at a page, as extractors (`FromRequestParts`): a
//! [`Visitor`] (anyone, logged in or not), a [`Team`] (a team's session,
//! else to the login page; the jury is sent to its own pages), the
//! [`Jury`] (the jury's session; anyone else gets 404, the jury's pages are
//! not announced), and a [`Fragment`] of a page (404, never a redirect, to
//! anyone it is not for). Each gives the handler the page's [`Frame`].

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::auth::{session, Account};
use super::frame::{Frame, PageError};
use super::state::App;

/// Anyone: the frame of a page, logged in or not.
#[derive(Debug)]
pub(crate) struct Visitor(pub(crate) Frame);

impl FromRequestParts<App> for Visitor {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, PageError> {
        let session = session(app, &parts.headers).await;
        Ok(Visitor(Frame::new(app, session).await?))
    }
}

/// A team looking at its pages.
#[derive(Debug)]
pub(crate) struct Team {
    /// The team's id.
    pub(crate) id: String,
    /// The page's frame.
    pub(crate) frame: Frame,
}

impl FromRequestParts<App> for Team {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, PageError> {
        let session = session(app, &parts.headers).await.ok_or(PageError::LogIn)?;
        let Account::Team(id) = session.account.clone() else {
            return Err(PageError::Elsewhere("/jury"));
        };
        Ok(Team {
            id,
            frame: Frame::new(app, Some(session)).await?,
        })
    }
}

/// The jury looking at its pages.
#[derive(Debug)]
pub(crate) struct Jury(pub(crate) Frame);

impl FromRequestParts<App> for Jury {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, PageError> {
        let session = session(app, &parts.headers).await.ok_or(PageError::LogIn)?;
        if session.account != Account::Jury {
            return Err(PageError::NotFound);
        }
        Ok(Jury(Frame::new(app, Some(session)).await?))
    }
}

/// A part of a page that the page refreshes: whoever it is not for gets
/// 404 (a redirect would put a login page inside a page).
#[derive(Debug)]
pub(crate) struct Fragment<T>(pub(crate) T);

impl<T> FromRequestParts<App> for Fragment<T>
where
    T: FromRequestParts<App, Rejection = PageError> + Send,
{
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, PageError> {
        match T::from_request_parts(parts, app).await {
            Ok(inner) => Ok(Fragment(inner)),
            Err(PageError::LogIn | PageError::Elsewhere(_)) => Err(PageError::NotFound),
            Err(other) => Err(other),
        }
    }
}
