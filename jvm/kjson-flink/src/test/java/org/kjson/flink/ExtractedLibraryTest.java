package org.kjson.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Extraction of the packaged library: reuse, verification, private directory, clear refusals. */
class ExtractedLibraryTest {
    private static final byte[] LIBRARY = "not really an ELF file, but bytes to hash".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path base;

    @Test
    void twoExtractionsReuseOneFile() throws IOException {
        Path first = ExtractedLibrary.extract(LIBRARY, base);
        Object inode = Files.getAttribute(first, "unix:ino");
        Path second = ExtractedLibrary.extract(LIBRARY, base);

        assertEquals(first, second);
        assertEquals(inode, Files.getAttribute(second, "unix:ino"), "the second start must not rewrite the copy");
        assertTrue(first.getFileName().toString().matches("libkjson-[0-9a-f]{16}\\.so"), first.toString());
        assertEquals(List.of(first), filesIn(first.getParent()));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(first.getParent())));
    }

    @Test
    void anotherLibraryGetsItsOwnFile() {
        Path first = ExtractedLibrary.extract(LIBRARY, base);
        Path other = ExtractedLibrary.extract("another build".getBytes(StandardCharsets.UTF_8), base);
        assertFalse(first.equals(other));
    }

    @Test
    void aTamperedCopyIsReplacedBeforeLoading() throws IOException {
        Path copy = ExtractedLibrary.extract(LIBRARY, base);
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-------"));
        Files.write(copy, "planted".getBytes(StandardCharsets.UTF_8));

        Path again = ExtractedLibrary.extract(LIBRARY, base);

        assertEquals(copy, again);
        assertArrayEquals(LIBRARY, Files.readAllBytes(again));
    }

    @Test
    void aSymbolicLinkInPlaceOfTheCopyIsReplaced() throws IOException {
        Path copy = ExtractedLibrary.extract(LIBRARY, base);
        Path elsewhere = Files.write(base.resolve("elsewhere.so"), LIBRARY);
        Files.delete(copy);
        Files.createSymbolicLink(copy, elsewhere);

        Path again = ExtractedLibrary.extract(LIBRARY, base);

        assertFalse(Files.isSymbolicLink(again), "a link could be swapped after the hash check");
        assertArrayEquals(LIBRARY, Files.readAllBytes(again));
    }

    @Test
    void aDirectoryOthersCanWriteIsRefused() throws IOException {
        Path dir = ExtractedLibrary.extract(LIBRARY, base).getParent();
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));

        UnsatisfiedLinkError error = assertThrows(UnsatisfiedLinkError.class, () -> ExtractedLibrary.extract(LIBRARY, base));

        assertTrue(error.getMessage().contains(dir.toString()), error.getMessage());
        assertTrue(error.getMessage().contains("mode rwxrwxrwx"), error.getMessage());
        assertTrue(error.getMessage().contains("-Dkjson.native.extract-dir="), error.getMessage());
    }

    @Test
    void aDirectoryOfAnotherUserIsRefused() throws IOException {
        UserPrincipal nobody;
        try {
            nobody = base.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        } catch (IOException e) {
            nobody = null;
        }
        Path dir = ExtractedLibrary.extract(LIBRARY, base).getParent();
        assumeTrue(nobody != null && canChown(dir, nobody), "changing a directory's owner needs root");

        UnsatisfiedLinkError error = assertThrows(UnsatisfiedLinkError.class, () -> ExtractedLibrary.extract(LIBRARY, base));

        assertTrue(error.getMessage().contains("belongs to nobody"), error.getMessage());
    }

    @Test
    void aBaseThatCannotHoldADirectoryGivesTheMessage() throws IOException {
        Path notADirectory = Files.write(base.resolve("a-file"), LIBRARY);

        UnsatisfiedLinkError error = assertThrows(UnsatisfiedLinkError.class,
                () -> ExtractedLibrary.extract(LIBRARY, notADirectory.resolve("sub")));

        assertTrue(error.getMessage().startsWith("cannot extract the kjson native library to " + notADirectory),
                error.getMessage());
        assertTrue(error.getMessage().contains("-Dkjson.native.extract-dir="), error.getMessage());
    }

    @Test
    void aReadOnlyBaseSaysItIsNotWritable() throws IOException {
        Path readOnly = Files.createDirectory(base.resolve("read-only"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-x------"));
        assumeTrue(!Files.isWritable(readOnly), "root writes anywhere");

        UnsatisfiedLinkError error = assertThrows(UnsatisfiedLinkError.class, () -> ExtractedLibrary.extract(LIBRARY, readOnly));

        assertTrue(error.getMessage().contains("not writable"), error.getMessage());
    }

    @Test
    void platformsAreNamedAsTheResourceDirectories() {
        assertEquals("linux-x86_64", NativePlatform.of("Linux", "amd64"));
        assertEquals("linux-aarch64", NativePlatform.of("Linux", "aarch64"));
        assertEquals("macos-aarch64", NativePlatform.of("Mac OS X", "aarch64"));
        UnsatisfiedLinkError error = assertThrows(UnsatisfiedLinkError.class,
                () -> NativePlatform.requireSupported("macos-aarch64"));
        assertEquals("kjson has no native library for platform macos-aarch64 (the jar carries linux-x86_64,"
                + " linux-aarch64); build libkjson.so for it with cargo and set -Dkjson.native.path=/path/to/libkjson.so",
                error.getMessage());
    }

    private static boolean canChown(Path dir, UserPrincipal owner) {
        try {
            Files.setOwner(dir, owner);
            return Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).equals(owner);
        } catch (IOException e) {
            return false;
        }
    }

    private static List<Path> filesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }
}
