//! The whole of a live contest as the jury sees it at one moment: what its
//! archive (the specification's contest package) is made of. The main
//! type is [`ContestRecord`], read through the door
//! (`LiveContest::contest_record`, the jury's only).

use std::sync::Arc;

use super::live::Board;
use super::model::{
    Clarification, ContestSnapshot, GroupSnapshot, JudgementRecord, LanguageSnapshot,
    OrganizationSnapshot, ProblemSnapshot, RunRecord, SourceFile, StateSnapshot, SubmissionRecord,
    TeamSnapshot,
};
use crate::contest::awards::Award;
use crate::contest::clock::EpochMs;

/// Everything the API serves the jury, read at one moment.
#[derive(Debug, Clone)]
pub(crate) struct ContestRecord {
    /// The contest, with the jury's changes to its clock.
    pub(crate) contest: ContestSnapshot,
    /// The start in effect (contest-relative times count from it).
    pub(crate) start: Option<EpochMs>,
    /// Its state.
    pub(crate) state: StateSnapshot,
    /// The problems.
    pub(crate) problems: Vec<ProblemSnapshot>,
    /// The languages.
    pub(crate) languages: Vec<LanguageSnapshot>,
    /// The teams (each is an account of its own id).
    pub(crate) teams: Vec<TeamSnapshot>,
    /// The groups.
    pub(crate) groups: Vec<GroupSnapshot>,
    /// The organizations.
    pub(crate) organizations: Vec<OrganizationSnapshot>,
    /// Every submission counted (not ignored), with its files.
    pub(crate) submissions: Vec<(SubmissionRecord, Vec<SourceFile>)>,
    /// Their started judgements.
    pub(crate) judgements: Vec<JudgementRecord>,
    /// Those judgements' runs.
    pub(crate) runs: Vec<RunRecord>,
    /// Every clarification.
    pub(crate) clarifications: Vec<Clarification>,
    /// The awards of the jury's scoreboard.
    pub(crate) awards: Vec<Award>,
    /// The jury's scoreboard (frozen results included).
    pub(crate) board: Arc<Board>,
}
