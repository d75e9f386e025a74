extension AnyFetchRequest {
    /// Checks that the request's order keeps each section's rows together whatever rows the store holds, as
    /// a controller needs; a controller checks it before it fetches (`performFetch()`, `setRequest(_:)`, and for
    /// every request of a `MultiResultsController`).
    ///
    /// Sections are told apart byte for byte. A section key path without a sort descriptor of its own is sorted
    /// first, case-sensitively, by the controller. Two orders can split a section and are refused:
    /// - a case-insensitive sort descriptor on the section key path: `Apple` sorts among the rows of `apple`,
    ///   and the next sort key can put it between two of them;
    /// - a sort descriptor on another key before the section key path's: the rows of one section are spread
    ///   over that key's order.
    ///
    /// - Throws: ``FetchKitError/Code/sectionOrder`` with the section key path
    ///   (``FetchKitError/Context-swift.struct/keyPath``), no section, and a message that names the fix.
    package func checkSectionOrder() throws(FetchKitError) {
        guard let section = sectionNameKeyPath,
            let index = sortDescriptors.firstIndex(where: { $0.key == section })
        else { return }
        if index > 0 {
            let first = sortDescriptors[0].key
            throw FetchKitError.sectionOrderRefused(
                key: section,
                reason:
                    "\(SafeText.quoted(first)) is sorted before it, so a section's rows spread over the order "
                    + "of \(SafeText.quoted(first))",
                fix:
                    "sort by \(SafeText.quoted(section)) first, with a case-sensitive comparison, or leave "
                    + "\(SafeText.quoted(section)) out of the "
                    + "sort descriptors (the controller then sorts by it first)")
        }
        if sortDescriptors[index].caseInsensitive {
            throw FetchKitError.sectionOrderRefused(
                key: section,
                reason: "its sort descriptor is case-insensitive, so a row of 'Apple' can sort between two rows "
                    + "of 'apple'",
                fix:
                    "sort by \(SafeText.quoted(section)) first, with a case-sensitive comparison, or section by "
                    + "a key that holds "
                    + "the values already folded (lowercased)")
        }
    }
}

extension FetchKitError {
    /// A request refused before it fetches because its order can split a section of `key`.
    fileprivate static func sectionOrderRefused(key: String, reason: String, fix: String) -> FetchKitError {
        FetchKitError(
            .sectionOrder, message: "the order can split a section of \(SafeText.quoted(key)): \(reason); \(fix)",
            keyPath: key)
    }
}
