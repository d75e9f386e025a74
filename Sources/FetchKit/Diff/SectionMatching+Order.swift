extension SectionMatching {
    /// `true` when the sections on both sides keep their relative order (no section moves).
    /// - Complexity: O(sections), without allocating.
    var keepsRelativeOrder: Bool {
        var last = -1
        for target in oldTarget where target >= 0 {
            guard target > last else { return false }
            last = target
        }
        return true
    }

    /// Checks that the sections on both sides keep their relative order, as the incremental path assumes.
    ///
    /// - Throws: ``IncrementalInconsistency`` when sections changed their relative order (the incremental
    ///   path then refetches).
    func checkRelativeOrder() throws {
        guard keepsRelativeOrder else {
            throw IncrementalInconsistency(description: "sections changed their relative order")
        }
    }
}
