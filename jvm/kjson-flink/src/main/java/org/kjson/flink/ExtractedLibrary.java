package org.kjson.flink;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;

/**
 * The packaged native library as a file the JVM can load. One copy per library content,
 * {@code libkjson-<sha256 prefix>.so}, in {@code <base>/kjson-native-<user>}: later starts (and
 * other TaskManagers of the same user) reuse it, so a crashed JVM leaves nothing new behind.
 *
 * <p>Nobody else may plant or swap the file that gets loaded: the directory must be a real
 * directory owned by this process's user with mode 0700 (created so, refused otherwise), and a
 * reused copy is loaded only if it is a regular file of that user whose SHA-256 matches the
 * packaged bytes; any other file is replaced.
 */
final class ExtractedLibrary {
    /** Where the per-user directory is created; defaults to {@code java.io.tmpdir}. */
    static final String EXTRACT_DIR_PROPERTY = "kjson.native.extract-dir";

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    /** A half-written copy older than this belongs to a JVM that died while extracting. */
    private static final Duration ABANDONED_TEMP_AGE = Duration.ofMinutes(10);
    private static final String TEMP_PREFIX = ".libkjson-";
    private static final String TEMP_SUFFIX = ".tmp";

    private ExtractedLibrary() {}

    /** The base directory from {@value #EXTRACT_DIR_PROPERTY}, else {@code java.io.tmpdir}. */
    static Path configuredBase() {
        String base = System.getProperty(EXTRACT_DIR_PROPERTY);
        if (base == null || base.isEmpty()) {
            base = System.getProperty("java.io.tmpdir");
        }
        return Paths.get(base).toAbsolutePath();
    }

    /** The path of a verified copy of {@code library} under {@code base}, written if needed. */
    static Path extract(byte[] library, Path base) {
        Path dir = base.resolve("kjson-native-" + userTag());
        try {
            ensurePrivateDirectory(dir);
            byte[] digest = sha256(library);
            Path file = dir.resolve("libkjson-" + HexFormat.of().formatHex(digest, 0, 8) + ".so");
            if (!isVerifiedCopy(file, digest)) {
                writeAtomically(dir, file, library);
            }
            removeAbandonedTemps(dir);
            return file;
        } catch (IOException e) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("cannot extract the kjson native library to " + dir
                    + ": " + describe(e) + "; set -D" + EXTRACT_DIR_PROPERTY + "=<a writable local directory> (its"
                    + " filesystem must allow executables) or -D" + NativeLibrary.PATH_PROPERTY
                    + "=/path/to/libkjson.so");
            error.initCause(e);
            throw error;
        }
    }

    private static String describe(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "not writable (" + e.getMessage() + ")";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** Creates {@code dir} with mode 0700, or checks that an existing one is exactly that. */
    static void ensurePrivateDirectory(Path dir) throws IOException {
        Files.createDirectories(dir.getParent());
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            // The umask may have masked bits out of the requested mode, never added any.
            Files.setPosixFilePermissions(dir, OWNER_ONLY);
        } catch (FileAlreadyExistsException e) {
            // checked below
        }
        PosixFileAttributes attributes = Files.getFileAttributeView(dir, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS).readAttributes();
        if (!attributes.isDirectory()) {
            throw new IOException("exists and is not a directory (a symbolic link is refused too)");
        }
        if (!attributes.owner().equals(processOwner())) {
            throw new IOException("the directory belongs to " + attributes.owner().getName() + ", not to this"
                    + " process's user " + processOwner().getName() + "; remove it or choose another directory");
        }
        if (!attributes.permissions().equals(OWNER_ONLY)) {
            throw new IOException("the directory has mode " + PosixFilePermissions.toString(attributes.permissions())
                    + ", kjson loads only from a directory with mode rwx------ (chmod 700 it, or remove it)");
        }
    }

    /** A regular file of this user whose content hashes to {@code digest}. */
    static boolean isVerifiedCopy(Path file, byte[] digest) throws IOException {
        PosixFileAttributes attributes;
        try {
            attributes = Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .readAttributes();
        } catch (java.nio.file.NoSuchFileException e) {
            return false;
        }
        return attributes.isRegularFile() && attributes.owner().equals(processOwner())
                && Arrays.equals(sha256(Files.readAllBytes(file)), digest);
    }

    /** Written beside the target, then renamed over it: a reader sees the old or the new file. */
    private static void writeAtomically(Path dir, Path file, byte[] library) throws IOException {
        Path temp = Files.createTempFile(dir, TEMP_PREFIX, TEMP_SUFFIX);
        try {
            Files.write(temp, library);
            Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("r-x------"));
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** Temporary files a JVM killed mid-extraction left behind. */
    private static void removeAbandonedTemps(Path dir) throws IOException {
        Instant cutoff = Instant.now().minus(ABANDONED_TEMP_AGE);
        try (DirectoryStream<Path> temps = Files.newDirectoryStream(dir, TEMP_PREFIX + "*" + TEMP_SUFFIX)) {
            for (Path temp : temps) {
                FileTime modified = Files.readAttributes(temp, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                        .lastModifiedTime();
                if (modified.toInstant().isBefore(cutoff)) {
                    Files.deleteIfExists(temp);
                }
            }
        }
    }

    /** The user this process runs as: the owner of {@code /proc/self} on Linux. */
    static UserPrincipal processOwner() throws IOException {
        Path self = Paths.get("/proc/self");
        if (Files.exists(self)) {
            return Files.getOwner(self);
        }
        return self.getFileSystem().getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
    }

    private static String userTag() {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        return user.isEmpty() ? "user" : user;
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM provides SHA-256", e);
        }
    }
}
