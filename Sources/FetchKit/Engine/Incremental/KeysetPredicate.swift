/// The predicate that selects the rows sorting strictly after a given row: the keyset query that refills a
/// limited window after its last row (no `OFFSET`, so rows committed meanwhile cannot shift it).
enum KeysetPredicate {
    /// Rows after `row` in `order`: `(c1 > v1) OR (c1 == v1 AND c2 > v2) OR …`, ending with the primary key,
    /// with NULLs first ascending (so last descending) as the database orders them.
    ///
    /// `nil` when a component compares text case-insensitively: the predicate's case folding is not
    /// guaranteed to order exactly like the `ORDER BY`'s, so such windows refill by refetching.
    static func after(_ row: Row, in order: SortKeyOrder) -> FetchPredicate? {
        guard !order.components.contains(where: \.caseInsensitive) else { return nil }
        let columns = order.components.map { ($0.column, $0.ascending) } + [(order.primaryKey, true)]
        var alternatives: [FetchPredicate] = []
        var equalities: [FetchPredicate] = []
        for (column, ascending) in columns {
            let value = row[column] ?? .null
            let key = FetchPredicate.Operand.key(FetchPredicate.Key(column))
            let isNull = FetchPredicate.comparison(.init(key, .equal, .value(.null)))
            let after: FetchPredicate
            switch (value.isNull, ascending) {
            case (true, true): after = .comparison(.init(key, .notEqual, .value(.null)))
            case (false, true): after = .comparison(.init(key, .greaterThan, .value(value)))
            case (true, false): after = .false
            case (false, false): after = .or([.comparison(.init(key, .lessThan, .value(value))), isNull])
            }
            alternatives.append(equalities.isEmpty ? after : .and(equalities + [after]))
            equalities.append(value.isNull ? isNull : .comparison(.init(key, .equal, .value(value))))
        }
        return .or(alternatives)
    }
}
