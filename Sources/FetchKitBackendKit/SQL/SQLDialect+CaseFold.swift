extension SQLDialect {
    /// `expression` folded for case: ``caseFoldFunction`` over it (composed as ``caseFoldComposition`` says),
    /// in ``caseFoldCollation`` when set.
    func caseFolded(_ expression: SQLFragment) -> SQLFragment {
        let (open, close) = caseFoldWrapping
        return open + expression + close
    }
}
