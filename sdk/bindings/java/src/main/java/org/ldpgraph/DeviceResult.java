package org.ldpgraph;

import java.time.Instant;

/** What the latest model covering her graph says about a device's user (Uploader.fetchResult). Immutable. */
public final class DeviceResult {
  /** Whose class it is. */
  public enum Task {
    /** Her own class (a node model). */
    NODE,
    /** The class of the graph she belongs to (a graph model). */
    GRAPH
  }

  private final long graphId;
  private final int userId;
  private final Task task;
  private final long modelVersion;
  private final Instant trainedAt;
  private final int classIndex;
  private final long classLabel;
  private final double[] probabilities;

  DeviceResult(long graphId, int userId, int task, long modelVersion, long trainedAt, int classIndex, long classLabel,
               double[] probabilities) {
    this.graphId = graphId;
    this.userId = userId;
    this.task = task == 2 ? Task.GRAPH : Task.NODE;
    this.modelVersion = modelVersion;
    this.trainedAt = Instant.ofEpochSecond(trainedAt);
    this.classIndex = classIndex;
    this.classLabel = classLabel;
    this.probabilities = probabilities;
  }

  public long graphId() {
    return graphId;
  }

  public int userId() {
    return userId;
  }

  public Task task() {
    return task;
  }

  public long modelVersion() {
    return modelVersion;
  }

  public Instant trainedAt() {
    return trainedAt;
  }

  /** The most probable class, as an index into probabilities(). */
  public int classIndex() {
    return classIndex;
  }

  /** Its label, as the graph's classes are named. */
  public long classLabel() {
    return classLabel;
  }

  /** One per class, summing to 1 (a copy). */
  public double[] probabilities() {
    return probabilities.clone();
  }
}
