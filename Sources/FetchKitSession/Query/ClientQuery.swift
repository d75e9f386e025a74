import FetchKit
import Foundation

/// A client's narrowing of the server's request: its filter and sort, checked against a policy.
struct ClientQuery: Sendable, Hashable {
    var filter: FetchPredicate?
    var sort: [FetchSortDescriptor]

    /// The client's `open` message, checked against `policy`.
    init(filter: String?, sort: [ClientSort], policy: ClientQueryPolicy) throws(SessionError) {
        let trimmed = filter.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        self.filter =
            if let trimmed, !trimmed.isEmpty { try policy.predicate(fromFilter: trimmed) } else { nil }
        self.sort = try policy.sortDescriptors(from: sort)
    }

    /// The request a session serves: the server's, its predicate AND-ed with the user's scope and the client's
    /// filter; sorted by the server's section key first, then the client's keys, then the server's own.
    func narrowing<Object>(_ base: FetchRequest<Object>, scope: FetchPredicate?) -> FetchRequest<Object> {
        var request = base
        request.predicate = .and([base.predicate, scope, filter].compactMap { $0 }.filter { $0 != .true })
        guard !sort.isEmpty else { return request }
        let section = base.sectionNameKeyPath
        let leading = base.sortDescriptors.prefix { $0.key == section }
        let clientKeys = Set(sort.map(\.key))
        let rest = base.sortDescriptors.dropFirst(leading.count).filter { !clientKeys.contains($0.key) }
        request.sortDescriptors = Array(leading) + sort.filter { $0.key != section } + rest
        return request
    }
}
