//! JUnit XML for CI systems: one `<testcase>` per submission x test, in one
//! `<testsuite>` per submission. A failing test carries its verdict as the
//! failure type, its message, and the diff as the failure text. Built with
//! `quick-junit` (the serializer cargo-nextest uses).

use std::time::Duration;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use crate::compile::CompileStatus;
use crate::report::SubmissionReport;
use crate::verdict::Verdict;

/// One submission to put in the report, with what it was expected to get
/// (`verify`: a wrong solution failing is a success) and a suite name.
#[derive(Debug, Clone)]
pub(crate) struct JunitSubmission<'a> {
    /// Suite name (`acwing-891 solutions/wa.cpp`, `alice/hdu-1527.cpp`).
    pub(crate) suite: String,
    /// The judged submission.
    pub(crate) report: &'a SubmissionReport,
    /// Verdicts the submission may get; `None` means AC is expected of every test.
    pub(crate) expected: Option<&'a [Verdict]>,
}

/// Renders the JUnit XML document for `submissions`.
pub(crate) fn render(name: &str, submissions: &[JunitSubmission<'_>]) -> String {
    let mut report = Report::new(name);
    for s in submissions {
        report.add_test_suite(suite(s));
    }
    report.to_string().expect("JUnit serialises to a string")
}

/// Renders `judge verify`'s JUnit document: a suite per solution, and a
/// suite per package (`PROBLEM package`) with one test case, `holds`, that
/// fails with every failure of the package: what is wrong outside the
/// solutions (a missing test folder, an invalid test, a brute force that
/// disagrees) is a failure the CI shows too, not an empty report.
pub(crate) fn render_verify(
    submissions: &[JunitSubmission<'_>],
    packages: &[(&str, &[String])],
) -> String {
    let mut report = Report::new("judge verify");
    for s in submissions {
        report.add_test_suite(suite(s));
    }
    for (problem, failures) in packages {
        let mut suite = TestSuite::new(format!("{problem} package"));
        let status = if failures.is_empty() {
            TestCaseStatus::success()
        } else {
            let mut st = TestCaseStatus::non_success(NonSuccessKind::Failure);
            st.set_type("package")
                .set_message(failures[0].clone())
                .set_description(failures.join("\n"));
            st
        };
        let mut case = TestCase::new("holds", status);
        case.set_classname(problem.to_string());
        suite.add_test_case(case);
        report.add_test_suite(suite);
    }
    report.to_string().expect("JUnit serialises to a string")
}

fn suite(s: &JunitSubmission<'_>) -> TestSuite {
    let r = s.report;
    let mut suite = TestSuite::new(s.suite.clone());
    let classname = format!("{}.{}", r.problem, r.submission);
    if r.compile.status == CompileStatus::Error {
        let ok = s.expected.is_some_and(|e| e.contains(&Verdict::CE));
        let status = if ok {
            TestCaseStatus::success()
        } else {
            let mut st = TestCaseStatus::non_success(NonSuccessKind::Failure);
            st.set_type("CE")
                .set_message("compile error")
                .set_description(r.compile.message.clone());
            st
        };
        let mut case = TestCase::new("compile", status);
        case.set_classname(classname.clone());
        suite.add_test_case(case);
        return suite;
    }
    // With expectations (verify), a test fails only when the submission
    // missed its expectation and this is the test that decided it.
    let missed = s.expected.is_some_and(|e| !e.contains(&r.verdict));
    for t in &r.tests {
        let failed = match s.expected {
            None => !t.verdict.is_accepted(),
            Some(_) => missed && t.verdict == r.verdict && !t.verdict.is_accepted(),
        };
        let status = if failed {
            let mut st = TestCaseStatus::non_success(NonSuccessKind::Failure);
            st.set_type(t.verdict.as_str());
            let message = if t.message.is_empty() {
                format!("{}: {}", t.verdict, t.verdict.description())
            } else {
                format!("{}: {}", t.verdict, t.message)
            };
            st.set_message(message);
            if let Some(diff) = &t.diff {
                st.set_description(diff.clone());
            }
            st
        } else {
            TestCaseStatus::success()
        };
        let mut case = TestCase::new(t.name.clone(), status);
        case.set_classname(classname.clone());
        case.set_time(Duration::from_millis(t.wall_ms));
        suite.add_test_case(case);
    }
    for name in &r.skipped {
        let mut st = TestCaseStatus::skipped();
        st.set_message(match r.skip_reason {
            Some(reason) => format!("not run: {}", reason.describe()),
            None => "not run".to_string(),
        });
        let mut case = TestCase::new(name.clone(), st);
        case.set_classname(classname.clone());
        suite.add_test_case(case);
    }
    if let (Some(expected), true) = (s.expected, missed) {
        // A wrong solution that passes everything has no failing test: say so.
        if r.verdict.is_accepted() {
            let mut st = TestCaseStatus::non_success(NonSuccessKind::Failure);
            let list: Vec<&str> = expected.iter().map(|v| v.as_str()).collect();
            st.set_type("expectation").set_message(format!(
                "expected {}, got AC on every test",
                list.join(" or ")
            ));
            let mut case = TestCase::new("expected verdict", st);
            case.set_classname(classname);
            suite.add_test_case(case);
        }
    }
    suite
}

#[cfg(test)]
mod tests {
    /// A package that fails outside its solutions fails in JUnit too.
    #[test]
    fn a_failing_package_is_a_failing_case() {
        let failures = vec!["cannot read the test data folder testdata/x".to_string()];
        let xml = render_verify(&[], &[("x", &failures), ("y", &[])]);
        assert!(xml.contains("tests=\"2\""), "{xml}");
        assert!(xml.contains("failures=\"1\""), "{xml}");
        assert!(
            xml.contains("cannot read the test data folder testdata/x"),
            "{xml}"
        );
    }

    use super::*;
    use crate::report::fixtures::{submission_report, test_report};
    use crate::report::TestReport;

    /// A test's report as the snapshot shows it: 1 ms, 100 KiB; WA with a diff.
    fn test(name: &str, verdict: Verdict) -> TestReport {
        let wrong = verdict == Verdict::WA;
        let message = if wrong {
            "line 1: expected `Yes`, got `No`"
        } else {
            ""
        };
        let diff = wrong.then_some("-     1 | Yes\n+     1 | No\n");
        TestReport {
            time_ms: 1,
            wall_ms: 2,
            memory_kib: 100,
            ..test_report(name, verdict, message, diff)
        }
    }

    /// A report as the snapshot shows it: a cached build, full isolation.
    fn report(verdict: Verdict, tests: Vec<TestReport>) -> SubmissionReport {
        let mut r = submission_report(tests, verdict);
        r.compile.time_ms = 0;
        r.compile.cached = true;
        r.isolation = "cgroup-v1".into();
        r
    }

    #[test]
    fn failures_carry_verdict_message_and_diff() {
        let r = report(
            Verdict::WA,
            vec![test("sample-1", Verdict::AC), test("edge-1", Verdict::WA)],
        );
        let xml = render(
            "judge run",
            &[JunitSubmission {
                suite: "acwing-891 wa.cpp".into(),
                report: &r,
                expected: None,
            }],
        );
        insta::assert_snapshot!(xml);
    }

    #[test]
    fn expected_wrong_answers_are_successes() {
        let r = report(
            Verdict::WA,
            vec![test("sample-1", Verdict::AC), test("edge-1", Verdict::WA)],
        );
        let expected = [Verdict::WA];
        let xml = render(
            "judge verify",
            &[JunitSubmission {
                suite: "s".into(),
                report: &r,
                expected: Some(&expected),
            }],
        );
        assert!(!xml.contains("<failure"), "{xml}");
        let passing = report(Verdict::AC, vec![test("sample-1", Verdict::AC)]);
        let xml = render(
            "judge verify",
            &[JunitSubmission {
                suite: "s".into(),
                report: &passing,
                expected: Some(&expected),
            }],
        );
        assert!(xml.contains("expected WA, got AC on every test"), "{xml}");
    }
}
