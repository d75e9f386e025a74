/// The property a single-member key path of a record written by hand names, read from the key path's
/// description (``EntityRecord``s answer from their generated map instead).
enum PredicateKeyPathName {
    /// `title` for `\Todo.title`; `nil` for a key path of more than one member.
    static func property(of keyPath: AnyKeyPath, root: Any.Type) -> String? {
        let description = String(describing: keyPath)
        let prefix = "\\" + String(describing: root) + "."
        guard description.hasPrefix(prefix) else { return nil }
        let name = description.dropFirst(prefix.count)
        guard let first = name.first, first == "_" || first.isLetter,
            name.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber })
        else { return nil }
        return String(name)
    }
}
