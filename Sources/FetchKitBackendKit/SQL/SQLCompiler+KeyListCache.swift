@_spi(Backend) import FetchKit
import Synchronization

/// Compiled re-reads by primary key, reused: live results re-read changed rows with the same request for
/// every change — its predicate `AND` the primary key `IN (k1, …, kn)` — and only the keys differ.
///
/// The statement is compiled once per request, number of keys and kinds of keys, and checked to end with
/// the keys as its last bindings (a long list that the dialect binds as one encoded value is not cached);
/// later compilations bind the new keys into a copy of it. Bounded: a full cache starts over.
final class KeyListStatementCache: Sendable {
    struct Key: Hashable {
        /// The request with an empty key list.
        let request: AnyFetchRequest
        /// The kind of each key, in order (their count is the list's length).
        let kinds: [UInt8]
    }

    static let capacity = 256
    private let entries = Mutex<[Key: CompiledFetch]>([:])

    init() {}

    /// The statement compiled for `key`, if any.
    func statement(for key: Key) -> CompiledFetch? {
        entries.withLock { $0[key] }
    }

    /// Keeps `fetch` for `key`.
    func store(_ fetch: CompiledFetch, for key: Key) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = fetch
        }
    }
}

/// A request that re-reads rows by primary key, split into its cache key and its keys.
struct KeyListRequest {
    let cacheKey: KeyListStatementCache.Key
    let keys: [Value]

    /// Splits `request` when its predicate is `primary key IN list`, alone or as the last operand of an `AND`,
    /// and it has no limit or offset (whose bindings would follow the keys).
    init?(_ request: AnyFetchRequest) {
        guard request.fetchLimit == nil, request.fetchOffset == 0 else { return nil }
        var template = request
        switch request.predicate.node {
        case .comparison(let comparison):
            guard let keys = Self.keys(of: comparison) else { return nil }
            self.keys = keys
            template.predicate = .comparison(Self.emptied(comparison))
        case .and(var operands):
            guard case .comparison(let comparison)? = operands.last?.node, let keys = Self.keys(of: comparison) else {
                return nil
            }
            self.keys = keys
            operands[operands.count - 1] = .comparison(Self.emptied(comparison))
            template.predicate = .and(operands)
        default:
            return nil
        }
        cacheKey = .init(request: template, kinds: keys.map(\.kindTag))
    }

    private static func keys(of comparison: FetchPredicate.Comparison) -> [Value]? {
        guard case .object = comparison.lhs.node, comparison.op == .in, comparison.options.isEmpty,
            case .list(let keys) = comparison.rhs.node, !keys.isEmpty
        else { return nil }
        return keys
    }

    private static func emptied(_ comparison: FetchPredicate.Comparison) -> FetchPredicate.Comparison {
        var comparison = comparison
        comparison.rhs = .list([])
        return comparison
    }
}

extension SQLCompiler {
    /// ``fetch(_:)`` through the key-list cache: a re-read by primary key reuses the statement compiled for
    /// the same request and number of keys.
    func cachedKeyListFetch(_ request: AnyFetchRequest, compile: (AnyFetchRequest) throws -> CompiledFetch) throws
        -> CompiledFetch
    {
        guard let split = KeyListRequest(request) else { return try compile(request) }
        let cacheKey = keyListCacheKey(split, entity: request.entityName)
        if var fetch = keyListStatements.statement(for: cacheKey) {
            let bindings = fetch.statement.bindings.count
            fetch.statement.bindings.replaceSubrange((bindings - split.keys.count)..<bindings, with: split.keys)
            return fetch
        }
        let fetch = try compile(request)
        if fetch.statement.bindings.count >= split.keys.count,
            fetch.statement.bindings.suffix(split.keys.count).elementsEqual(split.keys, by: Value.isIdentical)
        {
            keyListStatements.store(fetch, for: cacheKey)
        }
        return fetch
    }
}

extension SQLCompiler {
    /// The cache key of `split`, each key's kind marked when the primary key's native column compares that
    /// key as it is (a uuid in canonical form): the statement differs with the keys' form then, not only
    /// with their kinds.
    private func keyListCacheKey(_ split: KeyListRequest, entity name: String) -> KeyListStatementCache.Key {
        guard let entity = try? schema.entity(named: name),
            let native = nativeColumn(entity.primaryKeyAttribute, in: entity.table), native.keyComparison != nil
        else { return split.cacheKey }
        let operand = NativeOperand(column: SQLFragment(), native: native)
        let kinds = zip(split.cacheKey.kinds, split.keys).map { kind, key in operand.accepts(key) ? kind | 0x80 : kind }
        return .init(request: split.cacheKey.request, kinds: kinds)
    }
}

extension Value {
    /// Which case the value is.
    var kindTag: UInt8 {
        switch self {
        case .null: 0
        case .integer: 1
        case .double: 2
        case .text: 3
        case .bool: 4
        case .date: 5
        case .blob: 6
        }
    }

    /// The same case and payload (`Hashable`'s `==`, with doubles compared bit for bit).
    static func isIdentical(_ lhs: Value, _ rhs: Value) -> Bool {
        if case .double(let l) = lhs, case .double(let r) = rhs { return l.bitPattern == r.bitPattern }
        return lhs.kindTag == rhs.kindTag && lhs == rhs
    }
}
