// SPDX-License-Identifier: Apache-2.0
#include "epoxy/storage/local_file_system.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "epoxy/testing/test_util.h"

namespace epoxy {
namespace {

using ::epoxy::testing::TempDir;

TEST(LocalFileSystemTest, ListsRecursivelyWithSizeMtimeAndEtag) {
  TempDir dir;
  dir.Write("b/dt=1/x.csv", "abc");
  dir.Write("a.csv", "hello");
  LocalFileSystem fs;
  ASSERT_OK_AND_ASSIGN(auto files, fs.ListFiles(dir.path(), true));
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].path, dir.path() + "/a.csv");
  EXPECT_EQ(files[0].size, 5);
  EXPECT_GT(files[0].mtime_ns, 0);
  EXPECT_FALSE(files[0].etag.empty());
  EXPECT_EQ(files[1].path, dir.path() + "/b/dt=1/x.csv");
  ASSERT_OK_AND_ASSIGN(auto top, fs.ListFiles(dir.path(), false));
  EXPECT_EQ(top.size(), 1u);
}

TEST(LocalFileSystemTest, EtagChangesWhenTheFileIsRewritten) {
  TempDir dir;
  std::string path = dir.Write("f.json", "{}");
  LocalFileSystem fs;
  ASSERT_OK_AND_ASSIGN(FileInfo before, fs.GetFileInfo(path));
  ASSERT_OK(WriteWholeFile(fs, path, "{\"a\":1}"));  // atomic replace: a new inode
  ASSERT_OK_AND_ASSIGN(FileInfo after, fs.GetFileInfo(path));
  EXPECT_NE(before.etag, after.etag);
}

TEST(LocalFileSystemTest, RangedReads) {
  TempDir dir;
  std::string path = dir.Write("f", "0123456789");
  LocalFileSystem fs;
  ASSERT_OK_AND_ASSIGN(auto file, fs.OpenForRead("file://" + path));
  EXPECT_EQ(file->size(), 10);
  ASSERT_OK_AND_ASSIGN(BufferPtr middle, file->ReadAt(3, 4));
  EXPECT_EQ(middle->view(), "3456");
  ASSERT_OK_AND_ASSIGN(BufferPtr tail, file->ReadAt(8, 100));
  EXPECT_EQ(tail->view(), "89");
  ASSERT_OK_AND_ASSIGN(BufferPtr past, file->ReadAt(20, 5));
  EXPECT_EQ(past->size(), 0);
  EXPECT_FALSE(file->ReadAt(-1, 5).ok());
}

TEST(LocalFileSystemTest, WritesAreInvisibleUntilClosed) {
  TempDir dir;
  LocalFileSystem fs;
  std::string path = dir.path() + "/out/part-0.json";
  {
    ASSERT_OK_AND_ASSIGN(auto writer, fs.OpenForWrite(path));
    ASSERT_OK(writer->Append("partial"));
    EXPECT_FALSE(std::filesystem::exists(path));
    // destroyed without Close: discarded
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  ASSERT_OK_AND_ASSIGN(auto listed, fs.ListFiles(dir.path() + "/out", true));
  EXPECT_TRUE(listed.empty());  // no temporary left behind
  ASSERT_OK_AND_ASSIGN(auto writer, fs.OpenForWrite(path));
  ASSERT_OK(writer->Append("done"));
  ASSERT_OK(writer->Close());
  ASSERT_OK_AND_ASSIGN(std::string content, ReadWholeFile(fs, path));
  EXPECT_EQ(content, "done");
}

TEST(LocalFileSystemTest, MissingFilesAreNotFound) {
  LocalFileSystem fs;
  auto r = fs.OpenForRead("/no/such/file");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("/no/such/file"), std::string::npos);
}

TEST(LocalFileSystemTest, SymlinkLoopsAreListedOnce) {
  TempDir dir;
  dir.Write("d/x.csv", "a");
  ASSERT_EQ(::symlink((dir.path() + "/d").c_str(), (dir.path() + "/d/loop").c_str()), 0);
  LocalFileSystem fs;
  ASSERT_OK_AND_ASSIGN(auto files, fs.ListFiles(dir.path(), true));
  EXPECT_EQ(files.size(), 1u);
}

TEST(LocalFileSystemTest, EmptyFileReads) {
  TempDir dir;
  std::string path = dir.Write("empty", "");
  LocalFileSystem fs;
  ASSERT_OK_AND_ASSIGN(auto file, fs.OpenForRead(path));
  EXPECT_EQ(file->size(), 0);
  ASSERT_OK_AND_ASSIGN(BufferPtr all, file->ReadAt(0, 10));
  EXPECT_EQ(all->size(), 0);
}

TEST(FileSystemForTest, SchemesAreChecked) {
  EXPECT_TRUE(FileSystemFor("/tmp").ok());
  EXPECT_TRUE(FileSystemFor("file:///tmp").ok());
  EXPECT_TRUE(FileSystemFor("s3://bucket/key").ok());
  EXPECT_EQ(FileSystemFor("ftp://x").status().code(), StatusCode::kInvalidInput);
}

}  // namespace
}  // namespace epoxy
