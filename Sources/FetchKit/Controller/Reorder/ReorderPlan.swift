/// Where a dragged row's order value goes, and which rows around it must change theirs: the fewest writes
/// that put the row at its destination in the order `ORDER BY order, primaryKey` gives.
///
/// - Fractional keys (a `.double` order attribute): the dragged row takes the midpoint of its new
///   neighbours' values and nothing else moves — one write — unless the midpoint no longer fits between
///   them (after many moves into the same gap), when it falls back to shifting.
/// - Shifting (an `.integer` order attribute): the dragged row takes the value after its new predecessor's;
///   the rows after it take one more than the row before them only while they would collide — gaps absorb
///   the shift, so only the rows between the row's old and new positions change at most.
/// - A `NULL` order value in the destination renumbers the destination (0, 1, 2…), writing only the rows
///   whose value changes.
struct ReorderPlan: Equatable {
    /// The dragged row's new order value.
    var dragged: Value
    /// The other rows whose order value changes: primary key and new value, in order.
    var shifted: [(key: Value, value: Value)]

    static func == (lhs: ReorderPlan, rhs: ReorderPlan) -> Bool {
        lhs.dragged == rhs.dragged && lhs.shifted.map(\.key) == rhs.shifted.map(\.key)
            && lhs.shifted.map(\.value) == rhs.shifted.map(\.value)
    }

    /// Plans inserting the dragged row at `position` among `destination` — the rows of its destination
    /// section without it, in order, as (primary key, order value).
    ///
    /// - Complexity: O(*k*) for the *k* rows it shifts; O(*n*) for a section of *n* rows to renumber.
    static func plan(inserting position: Int, into destination: [(key: Value, order: Value)], fractional: Bool)
        -> ReorderPlan
    {
        let make: (Double) -> Value = { fractional ? .double($0) : .integer(Int64($0)) }
        let orders = destination.map { number($0.order) }
        if orders.contains(where: { $0 == nil }) {
            return renumbered(inserting: position, into: destination, make: make)
        }
        let values = orders.map { $0 ?? 0 }
        let before = position > 0 ? values[position - 1] : nil
        let after = position < values.count ? values[position] : nil
        switch (before, after) {
        case (nil, nil): return ReorderPlan(dragged: make(0), shifted: [])
        case (nil, let after?): return ReorderPlan(dragged: make(after - 1), shifted: [])
        case (let before?, nil): return ReorderPlan(dragged: make(before + 1), shifted: [])
        case (let before?, let after?):
            if fractional {
                let middle = before + (after - before) / 2
                if before < middle && middle < after { return ReorderPlan(dragged: .double(middle), shifted: []) }
            }
            var shifted: [(key: Value, value: Value)] = []
            var previous = before + 1
            for index in position..<values.count {
                guard values[index] <= previous else { break }
                previous += 1
                shifted.append((destination[index].key, make(previous)))
            }
            return ReorderPlan(dragged: make(before + 1), shifted: shifted)
        }
    }

    /// Numbers the destination with the dragged row in it 0, 1, 2…, keeping the values that already fit.
    private static func renumbered(
        inserting position: Int, into destination: [(key: Value, order: Value)], make: (Double) -> Value
    ) -> ReorderPlan {
        var shifted: [(key: Value, value: Value)] = []
        var dragged = make(Double(position))
        var slot = 0
        for index in 0...destination.count {
            if index == position {
                dragged = make(Double(slot))
                slot += 1
            }
            guard index < destination.count else { break }
            let value = make(Double(slot))
            if destination[index].order != value { shifted.append((destination[index].key, value)) }
            slot += 1
        }
        return ReorderPlan(dragged: dragged, shifted: shifted)
    }

    private static func number(_ value: Value) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .double(let double): double
        default: nil
        }
    }
}
