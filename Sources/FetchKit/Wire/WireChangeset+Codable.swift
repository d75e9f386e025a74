extension WireChangeset: Encodable where Object: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(version, forKey: .version)
        try container.encode(transactionID, forKey: .transaction)
        try container.encode(sectionCountsBefore, forKey: .countsBefore)
        try container.encode(sectionCountsAfter, forKey: .countsAfter)
        var sections = container.nestedContainer(keyedBy: Key.self, forKey: .sections)
        try sections.encode(sectionDeletes, forKey: .deleted)
        try sections.encode(sectionInserts, forKey: .inserted)
        try sections.encode(sectionMoves.map { PathPair(from: [$0.from], to: [$0.to]) }, forKey: .moved)
        var rows = container.nestedContainer(keyedBy: Key.self, forKey: .rows)
        try rows.encode(rowDeletes.map(Self.pair), forKey: .deleted)
        try rows.encode(rowInserts.map { Placed(at: Self.pair($0.at), object: $0.object) }, forKey: .inserted)
        try rows.encode(
            rowMoves.map { Moved(from: Self.pair($0.from), to: Self.pair($0.to), object: $0.object) }, forKey: .moved)
        try rows.encode(
            rowUpdates.map { Moved(from: Self.pair($0.from), to: Self.pair($0.to), object: $0.object) },
            forKey: .updated)
    }
}

extension WireChangeset: Decodable where Object: Decodable {
    /// - Throws: `DecodingError.dataCorrupted` for a version other than ``currentVersion`` or a path that is
    ///   not `[section, row]`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.currentVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "wire changeset version \(version); this client reads version \(Self.currentVersion)")
        }
        let sections = try container.nestedContainer(keyedBy: Key.self, forKey: .sections)
        let rows = try container.nestedContainer(keyedBy: Key.self, forKey: .rows)
        func path(_ pair: [Int]) throws -> RowPath {
            guard pair.count == 2 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .rows, in: container, debugDescription: "a path is [section, row], not \(pair)")
            }
            return RowPath(section: pair[0], row: pair[1])
        }
        self.init(
            version: version, transactionID: try container.decodeIfPresent(UInt64.self, forKey: .transaction),
            sectionCountsBefore: try container.decode([Int].self, forKey: .countsBefore),
            sectionCountsAfter: try container.decode([Int].self, forKey: .countsAfter),
            sectionDeletes: try sections.decode([Int].self, forKey: .deleted),
            sectionInserts: try sections.decode([SectionInsert].self, forKey: .inserted),
            sectionMoves: try sections.decode([PathPair].self, forKey: .moved).map {
                Changeset.Move(from: $0.from.first ?? -1, to: $0.to.first ?? -1)
            },
            rowDeletes: try rows.decode([[Int]].self, forKey: .deleted).map(path),
            rowInserts: try rows.decode([Placed<Object>].self, forKey: .inserted).map {
                RowInsert(at: try path($0.at), object: $0.object)
            },
            rowMoves: try rows.decode([Moved<Object?>].self, forKey: .moved).map {
                RowMove(from: try path($0.from), to: try path($0.to), object: $0.object ?? nil)
            },
            rowUpdates: try rows.decode([Moved<Object>].self, forKey: .updated).compactMap { moved in
                guard let object = moved.object else { return nil }
                return RowUpdate(from: try path(moved.from), to: try path(moved.to), object: object)
            })
    }
}

extension WireChangeset {
    enum Key: String, CodingKey {
        case version, transaction, countsBefore, countsAfter, sections, rows, deleted, inserted, moved, updated
    }

    struct PathPair: Codable {
        var from: [Int]
        var to: [Int]

        init(from: [Int], to: [Int]) {
            self.from = from
            self.to = to
        }

        // Section moves travel as {"from": i, "to": j}.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            self.from = [try container.decode(Int.self, forKey: .from)]
            self.to = [try container.decode(Int.self, forKey: .to)]
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(from.first ?? -1, forKey: .from)
            try container.encode(to.first ?? -1, forKey: .to)
        }

        enum Key: String, CodingKey { case from, to }
    }

    struct Placed<Payload> {
        var at: [Int]
        var object: Payload
    }

    struct Moved<Payload> {
        var from: [Int]
        var to: [Int]
        var object: Payload?
    }

    static func pair(_ path: RowPath) -> [Int] { [path.section, path.row] }
}

extension WireChangeset.Placed: Encodable where Payload: Encodable {}
extension WireChangeset.Placed: Decodable where Payload: Decodable {}
extension WireChangeset.Moved: Encodable where Payload: Encodable {}
extension WireChangeset.Moved: Decodable where Payload: Decodable {}
