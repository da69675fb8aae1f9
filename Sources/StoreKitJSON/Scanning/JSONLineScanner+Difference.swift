extension ScanCursor {
    /// Whether the line is the one `memory` remembers with only some of its scalars (strings, numbers, `true`,
    /// `false`, `null`; values, not keys) replaced by valid ones, noting them in its `replacements`: then it is
    /// valid, with the same containers, keys and depths. False leaves the line to a scan; nothing is kept.
    ///
    /// The two lines are compared byte for byte. Each difference must start within a remembered scalar, or just
    /// past its end, and after the end of the last one replaced; the scalar is scanned anew from the same place in
    /// this line, and the comparison goes on after the two. Replacements that make up more than a quarter of the
    /// line leave it to the scan too, which then costs about as much.
    func replacesScalarsOnly(of memory: UnsafeMutablePointer<JSONLineMemory.Contents>) -> Bool {
        let remembered = memory.pointee
        guard remembered.lineEnd > 0, remembered.maxDepth == maxDepth else { return false }
        let old = UnsafePointer(remembered.line.storage)
        let (oldEnd, newEnd) = (remembered.lineEnd, end - start)
        let scalars = remembered.scalars.storage
        let scalarCount = remembered.scalars.count
        var rescanBudget = newEnd / 4
        var (oldOffset, newOffset, next) = (0, 0, 0)
        while true {
            let available = min(oldEnd - oldOffset, newEnd - newOffset)
            let same = Self.commonPrefixLength(old + oldOffset, start + newOffset, available)
            if same == available { return oldEnd - oldOffset == newEnd - newOffset }
            let difference = oldOffset + same
            // The scalar the difference is in, or just past: the first not replaced yet (all after `oldOffset`)
            // that ends at or after it.
            next = max(next, remembered.scalarsByBlock.storage[difference &>> 6])
            while next < scalarCount && scalars[next].end < difference { next += 1 }
            guard next < scalarCount, scalars[next].start <= difference else { return false }
            let replacedStart = start + newOffset + (scalars[next].start - oldOffset)
            guard let replacement = scalar(at: replacedStart) else { return false }
            rescanBudget -= replacement.end - replacedStart
            guard rescanBudget >= 0 else { return false }
            memory.pointee.replacements.append(
                JSONLineMemory.Replacement(
                    old: scalars[next], new: .init(start: replacedStart - start, end: replacement.end - start),
                    type: replacement.type))
            (oldOffset, newOffset) = (scalars[next].end, replacement.end - start)
            next += 1
        }
    }

    /// The 16 bytes at `pointer`, whatever its alignment.
    @inline(__always)
    static func block(at pointer: UnsafePointer<UInt8>) -> SIMD16<UInt8> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD16<UInt8>.self)
    }

    /// The first of 16 bytes that is not zero, if any.
    @inline(__always)
    static func firstSetByte(_ block: SIMD16<UInt8>) -> Int? {
        // Read little-endian, the first set byte holds the lowest set bit.
        let words = unsafeBitCast(block, to: SIMD2<UInt64>.self)
        if words[0] != 0 { return words[0].trailingZeroBitCount &>> 3 }
        if words[1] != 0 { return 8 + words[1].trailingZeroBitCount &>> 3 }
        return nil
    }

    /// How many bytes from the start of `a` and `b` are the same, up to `count`.
    @inline(__always)
    static func commonPrefixLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var index = 0
        // 64 bytes a step while they are all the same, then 8, then one.
        while index + 64 <= count {
            let differing = (
                Self.block(at: a + index) ^ Self.block(at: b + index),
                Self.block(at: a + index + 16) ^ Self.block(at: b + index + 16),
                Self.block(at: a + index + 32) ^ Self.block(at: b + index + 32),
                Self.block(at: a + index + 48) ^ Self.block(at: b + index + 48)
            )
            let any = unsafeBitCast(differing.0 | differing.1 | differing.2 | differing.3, to: SIMD2<UInt64>.self)
            if any[0] | any[1] != 0 {
                if let byte = firstSetByte(differing.0) { return index + byte }
                if let byte = firstSetByte(differing.1) { return index + 16 + byte }
                if let byte = firstSetByte(differing.2) { return index + 32 + byte }
                return index + 48 + (firstSetByte(differing.3) ?? 0)
            }
            index += 64
        }
        while index + 8 <= count {
            let differing = JSONStringBytes.word(at: a + index) ^ JSONStringBytes.word(at: b + index)
            // Read little-endian, the first differing byte holds the lowest set bit.
            if differing != 0 { return index + differing.trailingZeroBitCount &>> 3 }
            index += 8
        }
        while index < count && a[index] == b[index] { index += 1 }
        return index
    }
}
